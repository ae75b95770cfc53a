# The libFuzzer targets' seed corpora and flags: one table for
# scripts/fuzz.sh (CI) and scripts/fuzz-bundle.sh (campaigns). Sourced, from
# the repository root.
#
#   make_fuzz_seeds DIR               DIR/<corpus>/ for every corpus below,
#                                     from the lit inputs and fuzz/seeds
#   fuzz_target_flags TARGET SEEDS DICTS
#                                     TARGET's flags: -max_len (the largest
#                                     seed in SEEDS/<corpus>, at least the
#                                     floor, so that no seed is cut) and
#                                     -dict=DICTS/<dictionary>
#   fuzz_target_seeds TARGET SEEDS    TARGET's seed directory, SEEDS/<corpus>
#                                     (nothing for a target without seeds)
#
# Both fail for a target the table does not name.

# fuzz_target_table TARGET: its corpus, -max_len floor and dictionary
# (- for none).
fuzz_target_table() {
  case $1 in
    sdpa-bounds-fuzzer) echo "- 64 -" ;;
    sdpa-ir-fuzzer) echo "ir 4096 sdpa.dict" ;;
    # The lowering fuzzer only lowers chunks with sdpa ops, plus variants
    # the lit inputs lack (fuzz/seeds/lowering); most of its budget goes to
    # the seeds (each new kernel costs about a second of PTX codegen).
    sdpa-lowering-fuzzer) echo "lowering 4096 sdpa.dict" ;;
    sdpa-runtime-fuzzer) echo "runtime 2048 runtime.dict" ;;
    # The whole-model import seeds are up to 75 KiB.
    sdpa-import-fuzzer) echo "import 16384 import.dict" ;;
    # Small PTX modules (the mma probe, copies, barriers, collectives).
    sdpa-ptx-fuzzer) echo "ptx 4096 ptx.dict" ;;
    *) echo "fuzz-targets.sh: no table entry for $1" >&2; return 1 ;;
  esac
}

make_fuzz_seeds() {
  local dir=$1
  python3 fuzz/make-seeds.py "$dir/ir" test examples > /dev/null
  python3 fuzz/make-seeds.py --match 'sdpa\.attention' "$dir/lowering" \
    test examples fuzz/seeds/lowering > /dev/null
  python3 fuzz/make-seeds.py "$dir/import" test/Import test/StableHLO > /dev/null
  mkdir -p "$dir/runtime" "$dir/ptx"
  cp fuzz/seeds/runtime/* "$dir/runtime/"
  cp fuzz/seeds/ptx/* "$dir/ptx/"
}

# seed_max_len FLOOR DIR...: the largest file's size in DIR..., at least
# FLOOR (libFuzzer cuts corpus inputs longer than -max_len).
seed_max_len() {
  local floor=$1 largest
  shift
  largest=$( (($# == 0)) || find "$@" -type f -printf '%s\n' | sort -n | tail -1)
  echo $(( ${largest:-0} > floor ? ${largest:-0} : floor ))
}

fuzz_target_flags() {
  local entry corpus floor dict
  entry=$(fuzz_target_table "$1") || return 1
  read -r corpus floor dict <<< "$entry"
  if [ "$corpus" = - ]; then
    echo "-max_len=$floor"
  else
    echo "-max_len=$(seed_max_len "$floor" "$2/$corpus")${dict:+ -dict=$3/$dict}"
  fi
}

fuzz_target_seeds() {
  local entry corpus
  entry=$(fuzz_target_table "$1") || return 1
  read -r corpus _ <<< "$entry"
  [ "$corpus" = - ] || echo "$2/$corpus"
}
