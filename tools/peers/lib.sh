# Shared by the scripts in tools/peers/: where the peers' sources are and how they are built.
# Nothing of theirs is committed here; their sources are cloned into target/peers/ (or taken
# from $NNEONNEO_DIR / $IRONPLC_DIR) and built there.

# nneonneo/2048-ai's source directory (cloned on first use).
nneonneo_src() {
  local src=${NNEONNEO_DIR:-target/peers/2048-ai}
  if [ ! -f "$src/2048.cpp" ]; then
    mkdir -p "$(dirname "$src")"
    git clone -q --depth 1 https://github.com/nneonneo/2048-ai "$src"
  fi
  echo "$src"
}

# Builds one of our C++ harnesses (tools/peers/NAME.cpp, which includes their 2048.cpp) as
# target/peers/NAME and prints its path.
build_nneonneo_harness() {
  local src
  src=$(nneonneo_src)
  mkdir -p target/peers
  g++ -O3 -std=c++11 -w -I "$src" -o "target/peers/$1" "tools/peers/$1.cpp"
  echo "target/peers/$1"
}

# Builds IronPLC's compiler and VM from their source (their own lock file) and prints the
# directory holding ironplcc and ironplcvm.
build_ironplc() {
  local src=${IRONPLC_DIR:-target/peers/ironplc}
  if [ ! -f "$src/compiler/Cargo.toml" ]; then
    mkdir -p "$(dirname "$src")"
    git clone -q --depth 1 https://github.com/ironplc/ironplc "$src"
  fi
  (cd "$src/compiler" && cargo build --release -q -p ironplc-cli -p ironplc-vm-cli)
  echo "$src/compiler/target/release"
}
