import dagster as dg

from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.claims import claim_partition, release_partition
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.indexing.versions import IndexVersion, prune_versions_with_manifests
from strata_pipeline.partitions import source_sets
from strata_pipeline.resources import CorpusResource, QdrantResource


@dg.asset(
    partitions_def=source_sets,
    group_name="index",
    owners=OWNERS,
    kinds={"qdrant"},
    tags=asset_tags("publish", pii="redacted"),
    deps=["eval_report"],
    code_version=code_version(__file__, "indexing/versions.py", "indexing/storage.py", "resources/qdrant.py"),
)
def published_index(
    context: dg.AssetExecutionContext, corpus: CorpusResource, qdrant: QdrantResource, qdrant_collection: IndexVersion
) -> dg.MaterializeResult:
    """Flip the served index to the new version, atomically, after its checks and eval have run.

    Blocking checks upstream stop this step, so a broken version is never served. Old versions
    beyond the newest few are pruned.
    """
    claim_partition(context, corpus.index_dir)  # one run writes a source-set at a time
    qdrant.publish(corpus.index_dir, qdrant_collection)
    removed = prune_versions_with_manifests(corpus.index_dir, context.partition_key)
    qdrant.drop_versions([manifest for _, manifest in removed if manifest is not None])
    release_partition(context, corpus.index_dir)
    return dg.MaterializeResult(
        metadata={
            "version": qdrant_collection.version,
            "collection": qdrant_collection.collection,
            "points": qdrant_collection.point_count,
            "pruned_versions": len(removed),
        }
    )
