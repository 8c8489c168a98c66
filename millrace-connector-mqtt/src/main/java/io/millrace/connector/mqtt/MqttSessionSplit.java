package io.millrace.connector.mqtt;

import io.millrace.api.source.DataCodec;
import io.millrace.api.source.SourceSplit;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One persistent MQTT session of a source: its number (the client id is the source's client id prefix, a dash and
 * this number) and the topic filters it subscribes to. The position is not here: the broker keeps it (the messages
 * the session has not acknowledged). The sessions of a source are fixed when the job first starts and kept in its
 * checkpoints, so a job restored at another parallelism still reads every session, and none is left with messages
 * that nobody reads.
 *
 * @param session the session's number, from 0
 * @param filters the topic filters, shared ones ({@code $share/group/filter}) included as such
 */
public record MqttSessionSplit(int session, List<String> filters) implements SourceSplit {
    public MqttSessionSplit {
        filters = List.copyOf(filters);
    }

    @Override
    public String splitId() {
        return "session-" + session;
    }

    /** The client id of this session for a source with client id prefix {@code prefix}. */
    public String clientId(String prefix) {
        return prefix + "-" + session;
    }

    /** Version 1: the session number, the number of filters, each filter in modified UTF-8. */
    static final class Codec extends DataCodec<MqttSessionSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(MqttSessionSplit s, DataOutputStream out) throws IOException {
            out.writeInt(s.session());
            out.writeInt(s.filters().size());
            for (String f : s.filters()) {
                out.writeUTF(f);
            }
        }

        @Override
        protected MqttSessionSplit read(int version, DataInputStream in) throws IOException {
            int session = in.readInt();
            int n = in.readInt();
            if (n < 0 || n > 100_000) {
                throw new IOException(name() + ": " + n + " filters is not a plausible count");
            }
            List<String> filters = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                filters.add(in.readUTF());
            }
            return new MqttSessionSplit(session, filters);
        }
    }
}
