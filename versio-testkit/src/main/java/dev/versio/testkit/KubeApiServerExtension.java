package dev.versio.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit extension behind {@link KubeApiServerTest}: starts (or reuses) the control plane and
 * resolves {@link KubernetesClient}, {@link ControlPlane} and {@link KubeTestScope} parameters.
 *
 * <p>The shared control plane lives in the root store and is closed when the test run ends; a
 * dedicated one lives in the class store. The JVM shutdown hook and the watchdog of {@link
 * ControlPlane} cover the runs that end any other way.
 */
public final class KubeApiServerExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(KubeApiServerExtension.class);
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

  /**
   * Constructor parameters resolve per test method, so each test gets its own {@link
   * KubeTestScope}.
   */
  @Override
  public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext root) {
    return ExtensionContextScope.TEST_METHOD;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    var type = parameter.getParameter().getType();
    return type == KubernetesClient.class
        || type == ControlPlane.class
        || type == KubeTestScope.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    var type = parameter.getParameter().getType();
    if (type == ControlPlane.class) {
      return controlPlane(context);
    }
    if (type == KubernetesClient.class) {
      return adminClient(context);
    }
    if (type == KubeTestScope.class) {
      return context
          .getStore(NAMESPACE)
          .computeIfAbsent(
              "scope",
              k -> new KubeTestScope(randomSuffix(), adminClient(context)),
              KubeTestScope.class);
    }
    throw new ParameterResolutionException("unsupported parameter " + parameter.getParameter());
  }

  private static KubernetesClient adminClient(ExtensionContext context) {
    var classContext = classContext(context);
    return classContext
        .getStore(NAMESPACE)
        .computeIfAbsent(
            "admin-client",
            k -> new ClosingClient(controlPlane(context).adminClient()),
            ClosingClient.class)
        .client();
  }

  private static ControlPlane controlPlane(ExtensionContext context) {
    var classContext = classContext(context);
    var dedicated =
        AnnotationSupport.findAnnotation(
                classContext.getRequiredTestClass(), KubeApiServerTest.class)
            .map(KubeApiServerTest::dedicated)
            .orElse(false);
    var owner = dedicated ? classContext : context.getRoot();
    // stores inherit their parents' values: a dedicated control plane needs a key of its own, or
    // a class would find the shared one once another class had started it
    return owner
        .getStore(NAMESPACE)
        .computeIfAbsent(
            dedicated ? "dedicated-control-plane" : "control-plane",
            k -> Startup.attempt(),
            Startup.class)
        .controlPlane();
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    var current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  private static Path workRoot() {
    return Path.of(System.getProperty("versio.testkit.workDir", "target/kube-apiserver"));
  }

  private static String randomSuffix() {
    var random = new SecureRandom();
    var sb = new StringBuilder("x");
    for (int i = 0; i < 5; i++) {
      sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }

  /**
   * The outcome of starting a control plane, kept so that a failed start is reported to every test
   * at once instead of being retried (and waited for) by each of them.
   */
  private record Startup(ControlPlane started, RuntimeException failure) implements AutoCloseable {
    static Startup attempt() {
      try {
        return new Startup(ControlPlane.start(workRoot()), null);
      } catch (RuntimeException e) {
        return new Startup(null, e);
      }
    }

    ControlPlane controlPlane() {
      if (failure != null) {
        throw new IllegalStateException(
            "the test control plane failed to start (see the first failing test): "
                + failure.getMessage(),
            failure);
      }
      return started;
    }

    @Override
    public void close() {
      if (started != null) {
        started.close();
      }
    }
  }

  /** Closes the admin client with the class's store. */
  private record ClosingClient(KubernetesClient client) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }
}
