#!/usr/bin/env bash
# The official Python MCP SDK for the tests that drive a Python client or server (test/e2e/mock-eras.test.ts):
# a virtual environment in .cache/python-sdk holding mcp==2.3.0 — from this machine's local wheel
# directory when it has one, else from pip's configured index. A no-op when it is there already.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.cache/python-sdk
VERSION=2.3.0
if "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$VERSION')" 2>/dev/null; then
  exit 0
fi
rm -rf "$VENV"
python3 -m venv "$VENV"
if [ -d /opt/pypi/files ]; then
  "$VENV/bin/pip" install -q --no-index --find-links /opt/pypi/files "mcp==$VERSION"
else
  "$VENV/bin/pip" install -q "mcp==$VERSION"
fi
"$VENV/bin/python" -c "import mcp" || { echo "the Python MCP SDK did not install into $VENV" >&2; exit 1; }
