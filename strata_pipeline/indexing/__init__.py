"""Stage 6 logic: write chunk vectors to a new Qdrant index version and publish it atomically."""
