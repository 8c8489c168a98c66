package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File names and response lines of the control directory. */
class ControlRequestTest {
    @TempDir
    Path dir;

    @Test
    void requestFileNames_roundTrip_andOtherNamesAreNotRequests() {
        ControlRequest stop = new ControlRequest(ControlRequest.Kind.STOP_WITH_SAVEPOINT, "20261130-ab_1");
        ControlRequest save = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "7");

        assertThat(stop.requestFileName()).isEqualTo("stop-with-savepoint-20261130-ab_1.request");
        assertThat(ControlRequest.fromFileName(stop.requestFileName())).contains(stop);
        assertThat(ControlRequest.fromFileName(save.requestFileName())).contains(save);
        assertThat(ControlRequest.fromFileName("savepoint-7.request.tmp")).isEmpty();
        assertThat(ControlRequest.fromFileName("savepoint-7.response")).isEmpty();
        assertThat(ControlRequest.fromFileName("savepoint-.request")).isEmpty();
        assertThat(ControlRequest.fromFileName("checkpoint-7.request")).isEmpty();
        assertThatThrownBy(() -> new ControlRequest(ControlRequest.Kind.SAVEPOINT, "../x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void responses_roundTrip_andAMultiLineErrorBecomesOneLine() {
        assertThat(ControlResponse.parse(ControlResponse.success("/a b/savepoint-3").format())).isEqualTo(ControlResponse.success("/a b/savepoint-3"));
        ControlResponse failed = ControlResponse.failure("abandoned:\n  it did not complete");
        assertThat(ControlResponse.parse(failed.format())).isEqualTo(ControlResponse.failure("abandoned: it did not complete"));
        assertThat(ControlResponse.parse("garbage").ok()).isFalse();
    }

    @Test
    void send_makesOnlyTheRequestFile_andWithdrawRemovesRequestAndResponse() throws Exception {
        ControlRequest request = new ControlRequest(ControlRequest.Kind.SAVEPOINT, "x");
        Path control = dir.resolve("control");
        request.send(control);
        assertThat(control).isDirectoryContaining(p -> p.getFileName().toString().equals("savepoint-x.request"));
        assertThat(request.response(control)).isEmpty();
        ControlResponse.success("/p").writeTo(control.resolve(request.responseFileName()));
        assertThat(request.response(control)).contains(ControlResponse.success("/p"));

        request.withdraw(control);

        assertThat(control).isEmptyDirectory();
    }
}
