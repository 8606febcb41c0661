"""Evaluation tooling, apart from the controllers it measures: benchmarks of adversary designs
(``bench``), cross-play tables with Bradley–Terry ratings (``crossplay``), and the runner that
plays whole episodes of the PettingZoo environment with controllers (``episodes``)."""
