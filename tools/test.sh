#!/usr/bin/env bash
# The README's test command: installs what the tests need besides Rust, then runs them.
# - Debian's chromium and its WebDriver, the headless browser the browser HMI is checked in
#   (crates/fbd-cli/tests/serve.rs), when they are missing: with sudo unless this shell is root
#   (a container or a CI image has no sudo).
# - PyPI: plcopen (the strict TC6 reader every export must pass: crates/fbd-plcopen/tests/tc6.rs),
#   junitparser (reads `fbd test --junit`: crates/fbd-test/tests/tables.rs), pymodbus (plays
#   through `fbd serve`: crates/fbd-cli/tests/serve.rs), selenium (drives chromium).
# Arguments go to `cargo test --workspace` (CI gives --locked).
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  as_root apt-get update -q >/dev/null
  as_root apt-get install -y -q chromium chromium-driver >/dev/null
fi
pip install -q plcopen==1.0.1 junitparser==3.2.0 pymodbus==3.8.6 selenium==4.27.1
cargo test --workspace "$@"
