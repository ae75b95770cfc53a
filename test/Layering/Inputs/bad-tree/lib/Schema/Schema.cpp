// The schema is IR-free: no MLIR or LLVM header (and the runtime may use it).
#include "SdpaSchema/Schema.h"
#include "llvm/ADT/StringRef.h"
