#!/usr/bin/env bash
# check_exports.sh LIB...: fails when a shared library of the runtime exports
# C++ runtime symbols (members of std::locale, facets, streams; not our own
# functions that merely take a std::ostream), the sign of a libstdc++
# linked in statically without --exclude-libs (runtime/CMakeLists.txt): a
# process holding another libstdc++ would then mix the two and crash.
set -u
status=0
for lib in "$@"; do
  leaked=$(nm -D --defined-only "$lib" | c++filt |
    grep -E '^[0-9a-f]+ [A-Za-z] ((guard variable|vtable|VTT|typeinfo|typeinfo name) for )?std::(locale|ios_base|basic_ostream|basic_istream|codecvt|num_put|num_get|__cxx11::basic_ostringstream)' |
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
