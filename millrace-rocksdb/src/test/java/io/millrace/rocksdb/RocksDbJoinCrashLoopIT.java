package io.millrace.rocksdb;

import io.millrace.verify.JoinCrashLoopIT;
import java.util.List;

/** Core's crash loop over an interval join and a temporal join, with their state in RocksDB: killed eight times. */
class RocksDbJoinCrashLoopIT extends JoinCrashLoopIT {
    @Override
    protected List<String> backendArgs() {
        return List.of("rocksdb", RocksDbConfig.DIRECTORY_OPTION + "=" + dir.resolve("rocksdb-state"), RocksDbConfig.MANAGED_MEMORY_OPTION + "=32mb");
    }

    @Override
    protected int kills() {
        return 8;
    }
}
