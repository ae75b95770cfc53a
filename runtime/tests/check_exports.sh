#!/usr/bin/env bash
# check_exports.sh LIB...: fails when a shared library of the runtime exports
# C++ runtime symbols (std::locale, facets, streams), the sign of a libstdc++
# linked in statically without --exclude-libs (runtime/CMakeLists.txt): a
# process holding another libstdc++ would then mix the two and crash.
set -u
status=0
for lib in "$@"; do
  leaked=$(nm -D --defined-only "$lib" | c++filt |
    grep -E 'std::(locale|ios_base|basic_ostream|basic_istream|codecvt|num_put|num_get|__cxx11::basic_ostringstream)' |
    head -5)
  if [ -n "$leaked" ]; then
    echo "$lib exports C++ runtime symbols, e.g.:"
    echo "$leaked"
    status=1
  else
    echo "$lib: no C++ runtime symbol exported"
  fi
done
exit $status
