package dev.versio.api.config;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Declarative conversions between the versions of one CustomResourceDefinition. */
@Group("versio.dev")
@Version("v1alpha1")
@AdditionalPrinterColumn(
    name = "CRD",
    jsonPath = ".spec.targetCRD.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Hub",
    jsonPath = ".spec.hubVersion",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Phase",
    jsonPath = ".status.phase",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Lossless",
    jsonPath = ".status.overallLossless",
    type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class CRDConversionConfig
    extends CustomResource<CRDConversionConfigSpec, ConversionConfigStatus> {}
