package dev.versio.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
  @Test
  void portsChosenTogetherAreAllDifferentAndFreeToBind() throws IOException {
    var ports = LoopbackPorts.distinct(64);
    assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(64);
    for (int port : ports) {
      try (var socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }
}
