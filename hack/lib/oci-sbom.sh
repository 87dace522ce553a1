# oci_attach_sbom LAYOUT SBOM CREATED: attaches a CycloneDX SBOM to the image of an OCI layout as an
# OCI 1.1 artifact — a manifest with artifactType application/vnd.cyclonedx+json, the empty config,
# the SBOM as its one layer, and the image's manifest as its subject — and lists it in index.json
# after the image (which stays manifests[0]). Registries that serve the referrers API then return
# it for the image's digest (`oras discover`, `cosign tree`); `oras cp --recursive` or `oras push`
# of the layout carries it along. Deterministic: the same SBOM, image and CREATED give the same
# bytes. Needs jq and sha256sum.
oci_attach_sbom() {
  local layout=$1 sbom=$2 created=$3
  local blobs=$layout/blobs/sha256 sbom_digest sbom_size empty_digest image manifest digest size
  sbom_digest=$(sha256sum "$sbom" | cut -d' ' -f1)
  sbom_size=$(stat -c %s "$sbom")
  cp "$sbom" "$blobs/$sbom_digest"
  printf '{}' >"$blobs/44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
  empty_digest=sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a
  image=$(jq -c '.manifests[0] | {mediaType, digest, size}' "$layout/index.json")
  manifest=$(jq -cn --argjson subject "$image" --arg empty "$empty_digest" \
    --arg sbom "sha256:$sbom_digest" --argjson size "$sbom_size" --arg created "$created" '{
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      artifactType: "application/vnd.cyclonedx+json",
      config: {mediaType: "application/vnd.oci.empty.v1+json", digest: $empty, size: 2, data: "e30="},
      layers: [{mediaType: "application/vnd.cyclonedx+json", digest: $sbom, size: $size,
                annotations: {"org.opencontainers.image.title": "sbom.cdx.json"}}],
      subject: $subject,
      annotations: {"org.opencontainers.image.created": $created}
    }')
  digest=$(printf '%s' "$manifest" | sha256sum | cut -d' ' -f1)
  size=$(printf '%s' "$manifest" | wc -c)
  printf '%s' "$manifest" >"$blobs/$digest"
  jq -c --arg d "sha256:$digest" --argjson s "$size" \
    '.manifests += [{mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $d, size: $s,
                     artifactType: "application/vnd.cyclonedx+json"}]' \
    "$layout/index.json" >"$layout/index.json.new"
  mv "$layout/index.json.new" "$layout/index.json"
}
