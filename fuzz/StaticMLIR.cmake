# SDPA_FUZZ_STATIC_MLIR (fuzz/CMakeLists.txt): only for shipping fuzz
# binaries to a machine without LLVM (scripts/fuzz-bundle.sh packs them,
# scripts/fuzz-campaign.sh runs them there). Every target of the project that
# links the imported `MLIR` or `LLVM` shared targets links MLIR's and LLVM's
# static component archives instead (by path: Debian's imported MLIR
# component targets depend on the `LLVM` dylib), through lld, which resolves
# archives in any order, with --gc-sections, and zlib and zstd statically: a
# fuzz target then needs glibc (2.36 or newer: Debian 12, Ubuntu 24.04) and
# libstdc++ only. docs/Rationale.md's rule holds: no binary mixes static MLIR
# with the dylib, as both `MLIR` and `LLVM` are replaced.
#
# The archives are uninstrumented, like libMLIR.so in the ordinary fuzz build.
# One difference: the linker keeps one copy of each inline function, ours
# (instrumented) where our objects define it too, so MLIR's own calls to such
# header functions are instrumented here. That adds coverage (after the
# lowering target's seeds, 6074 edges against 5994) but no measurable time: the
# same inputs replay in the same CPU time in both builds.

file(GLOB _sdpa_mlir_archives "${LLVM_LIBRARY_DIR}/libMLIR*.a")
file(GLOB _sdpa_llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
# MLIR's test libraries and C API are never what our code calls.
list(FILTER _sdpa_mlir_archives EXCLUDE REGEX "/libMLIR[A-Za-z0-9]*(Test|CAPI)[A-Za-z0-9]*\\.a$")
if(NOT _sdpa_mlir_archives OR NOT _sdpa_llvm_archives)
  message(FATAL_ERROR "SDPA_FUZZ_STATIC_MLIR: no libMLIR*.a / libLLVM*.a in "
                      "${LLVM_LIBRARY_DIR}")
endif()
find_library(SDPA_STATIC_ZLIB NAMES libz.a REQUIRED)
# LLVM's compression support calls zstd: libzstd.a where there is one
# (libzstd-dev; scripts/fuzz-bundle.sh fetches it when it is missing), else
# libzstd.so.1, which every Debian and Ubuntu system has (dpkg needs it).
find_library(SDPA_STATIC_ZSTD NAMES libzstd.a libzstd.so.1 REQUIRED)

add_library(SdpaStaticMLIR INTERFACE)
target_link_libraries(SdpaStaticMLIR INTERFACE
  ${_sdpa_mlir_archives} ${_sdpa_llvm_archives} ${SDPA_STATIC_ZLIB}
  ${SDPA_STATIC_ZSTD} rt dl m pthread)
# libstdc++ stays shared: libstdc++.a's operator new and delete are strong
# definitions and would replace ASan's (weak ones), which then reports
# alloc-dealloc mismatches inside LLVM. Every Linux with Python has it.
target_link_options(SdpaStaticMLIR INTERFACE
  -fuse-ld=lld "LINKER:--gc-sections" "LINKER:--build-id")

# Replaces MLIR and LLVM in the link interface of every target in `dir`.
function(_sdpa_use_static_mlir dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "UTILITY" OR target STREQUAL "SdpaStaticMLIR")
      continue()
    endif()
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(libs ${target} ${property})
      if(libs)
        list(TRANSFORM libs REPLACE "^(MLIR|LLVM)$" "SdpaStaticMLIR")
        list(TRANSFORM libs REPLACE "^\\$<LINK_ONLY:(MLIR|LLVM)>$"
             "$<LINK_ONLY:SdpaStaticMLIR>")
        set_property(TARGET ${target} PROPERTY ${property} "${libs}")
      endif()
    endforeach()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _sdpa_use_static_mlir("${subdir}")
  endforeach()
endfunction()
_sdpa_use_static_mlir("${PROJECT_SOURCE_DIR}")
