// The runtime has no MLIR dependency.
#include "mlir/IR/Builders.h"
