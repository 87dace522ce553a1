package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneAssetsTest {
  @TempDir Path home;

  @Test
  void envtestAssetsFromKubebuilderAssetsAreUsedWhenSet() throws IOException {
    var folder = binaries(home.resolve("envtest"));

    var assets = ControlPlaneAssets.locate(Map.of("KUBEBUILDER_ASSETS", folder.toString()), home);

    assertThat(assets.kubeApiServer()).isEqualTo(folder.resolve("kube-apiserver"));
    assertThat(assets.etcd()).isEqualTo(folder.resolve("etcd"));
  }

  @Test
  void versioAssetsWinOverKubebuilderAssets() throws IOException {
    var ours = binaries(home.resolve("ours"));
    var envtest = binaries(home.resolve("envtest"));

    var assets =
        ControlPlaneAssets.locate(
            Map.of("VERSIO_ASSETS", ours.toString(), "KUBEBUILDER_ASSETS", envtest.toString()),
            home);

    assertThat(assets.etcd()).isEqualTo(ours.resolve("etcd"));
  }

  @Test
  void withoutVariablesTheProvisioningCacheUnderHomeIsUsed() throws IOException {
    var cache = binaries(home.resolve(".cache/versio/k8s-1.20.2/bin"));

    assertThat(ControlPlaneAssets.locate(Map.of(), home).etcd()).isEqualTo(cache.resolve("etcd"));
  }

  @Test
  void missingBinariesAreReportedWithTheCommandThatProvisionsThem() {
    assertThatThrownBy(() -> ControlPlaneAssets.locate(Map.of(), home))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hack/control-plane.sh")
        .hasMessageContaining("KUBEBUILDER_ASSETS");
  }

  private static Path binaries(Path folder) throws IOException {
    Files.createDirectories(folder);
    for (var name : new String[] {"etcd", "kube-apiserver"}) {
      var file = Files.writeString(folder.resolve(name), "#!/bin/sh\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return folder;
  }
}
