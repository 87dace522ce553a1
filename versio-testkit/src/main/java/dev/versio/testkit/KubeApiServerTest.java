package dev.versio.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real etcd + kube-apiserver (see {@link ControlPlane}).
 *
 * <p>Test methods, constructors and lifecycle methods may declare parameters of type {@link
 * io.fabric8.kubernetes.client.KubernetesClient} (cluster admin, one per class), {@link
 * ControlPlane} (URL, CA, kubeconfig, clients for other identities) and {@link KubeTestScope}
 * (unique names and a namespace for this test).
 *
 * <p>Isolation: by default all classes of one test JVM share one control plane, and each test keeps
 * to its own names through {@link KubeTestScope}; start-up is paid once per JVM. A class that
 * stops, breaks or reconfigures the apiserver sets {@link #dedicated()} to get its own.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeApiServerExtension.class)
public @interface KubeApiServerTest {
  /** Whether this class gets a control plane of its own instead of the shared one. */
  boolean dedicated() default false;
}
