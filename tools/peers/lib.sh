# Shared by the scripts in tools/peers/. The peers' programs are not built here: nothing of
# theirs is committed, nor any script or recipe that builds it (the workplace's rule for other
# people's code, tools/peers/README.md). Each script takes the peer's program from an
# environment variable and stops with what to set when it is missing.

# need_program VAR WHAT: prints the path in $VAR when it is an executable file, else stops
# with what VAR must name.
need_program() {
  local var=$1 what=$2 val=${!1:-}
  if [ -z "$val" ]; then
    echo "$0: set $var to $what (tools/peers/README.md: what the program must do)" >&2
    exit 2
  fi
  if [ -d "$val" ] || [ ! -x "$val" ]; then
    echo "$0: $var=$val is not an executable file; it must name $what" >&2
    exit 2
  fi
  echo "$val"
}

# need_ironplc: prints $IRONPLC_BIN when it holds IronPLC's ironplcc and ironplcvm, else stops.
need_ironplc() {
  local dir=${IRONPLC_BIN:-}
  if [ -z "$dir" ]; then
    echo "$0: set IRONPLC_BIN to the directory holding IronPLC's ironplcc and ironplcvm (tools/peers/README.md)" >&2
    exit 2
  fi
  for tool in ironplcc ironplcvm; do
    if [ ! -x "$dir/$tool" ]; then
      echo "$0: IRONPLC_BIN=$dir has no executable $tool" >&2
      exit 2
    fi
  done
  echo "$dir"
}
