package dev.versio.cli.offline;

/** Shares test fixtures of the offline tests with the live ones. */
public final class OfflineCommandsTestAccess {
  private OfflineCommandsTestAccess() {}

  public static String lossierFieldRename() {
    return OfflineCommandsTest.LOSSIER_FIELD_RENAME;
  }
}
