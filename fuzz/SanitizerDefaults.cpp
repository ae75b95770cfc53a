//===- SanitizerDefaults.cpp - ASan options of the fuzz targets -----------===//
//
// Built into every fuzz target, so that running one by hand on a crash file
// behaves as under scripts/fuzz.sh.
//
// allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons fresh slabs when
// its header is compiled with ASan (our code) and unpoisons each allocation
// only in instrumented code; libMLIR.so is not instrumented, so an object it
// carves out of a slab our code allocated reads as poisoned. Those reports
// are artifacts of mixing instrumented and uninstrumented code; heap
// overflows and use-after-free are still caught through malloc's redzones.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
