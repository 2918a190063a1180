#!/usr/bin/env bash
# Render the pictures of docs/ from autodiff's own output (needs Graphviz's `dot`).
#   docs/make_pictures.sh [AUTODIFF]   (default: the autodiff on PATH, else .venv/bin/autodiff)
set -euo pipefail
cd "$(dirname "$0")"
autodiff=${1:-$(command -v autodiff || echo ../.venv/bin/autodiff)}

# The third tutorial's graph, e = (a + b) * d at a=2, b=3, d=4, after backward: every node shows the
# gradient it received and every edge the gradient passed along it.
"$autodiff" graph 'c = a + b; e = c * d' a=2 b=3 d=4 --backward --format dot | dot -Tsvg -o tutorial3-graph.svg
echo "wrote docs/tutorial3-graph.svg"
