package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * The last (or the running) storage migration of a config's target: its progress is recorded after
 * every page, so that the replica that takes over a config after a failover continues where the
 * previous one stopped instead of starting over.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StorageMigrationStatus {
  /** {@code Running}, {@code Succeeded}, {@code Failed} or {@code Cancelled}. */
  public String phase;

  /** The storage version the objects are re-stored at. */
  public String storageVersion;

  /** {@code status.storedVersions} of the target when the run started. */
  public List<String> storedVersionsBefore = new ArrayList<>();

  /** Objects handled so far: rewritten, written or deleted by others meanwhile, or failed. */
  public Long handled;

  /**
   * The apiserver's estimate of all objects (handled plus the remaining count of the last page).
   */
  public Long total;

  public Long rewritten;

  /** Objects someone else wrote during the run (a conflict): that write stored them already. */
  public Long writtenMeanwhile;

  /** Objects deleted during the run: nothing to store. */
  public Long deletedMeanwhile;

  public Long failed;

  /** The first object that could not be rewritten, and why. */
  public String firstError;

  /**
   * The CRD whose objects the run re-stores now: a CRD config's target; an XRD config's run
   * re-stores the objects of the composite's CRD, then those of the claim's.
   */
  public String crd;

  /** Where the next page starts (the apiserver's continue token); absent on the first page. */
  public String continueToken;

  /**
   * How often a replica continued this run after another stopped (failover, restart) or after it
   * was paused (the config not Applied, or a CRD not carrying the conversion, for a while).
   */
  public Long resumed;

  /** The value of the request annotation that started this run, when one did. */
  public String request;

  public String startedAt;
  public String finishedAt;

  /**
   * {@code <uid>/<generation>} of the CRD whose {@code storedVersions} this run pruned: a view of
   * that same CRD that still lists the old versions is one from before the prune, not a new need.
   */
  public String prunedCrd;

  /** What happened, in a sentence. */
  public String message;
}
