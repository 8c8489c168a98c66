# The RESULT line of each engine, query and backend's median round, from the ROUND lines of millrace-bench --rounds:
# by events per second, of an even count the slower of the two middle rounds (as --runs picks its median run),
# printed in the order the engines and queries first ran. Input: lines
#   ROUND round=<k> engine=<e> query=<q> backend=<b> events=<n> seconds=<s> eps=<r> p99_ms=<p> peak_rss_mb=<m>
# Output: that round's line, with "ROUND round=<k>" replaced by "RESULT".
{ delete f; for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
  key = f["engine"] " " f["query"] " " f["backend"]
  if (!(key in count)) order[++n] = key
  k = ++count[key]; eps[key, k] = f["eps"] + 0; line[key, k] = $0 }
END { for (o = 1; o <= n; o++) { key = order[o]; c = count[key]
        for (i = 1; i <= c; i++) idx[i] = i
        for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++)
          if (eps[key, idx[j]] < eps[key, idx[i]]) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
        m = line[key, idx[int((c + 1) / 2)]]
        sub(/^ROUND round=[0-9]+/, "RESULT", m); print m } }
