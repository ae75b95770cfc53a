//===- RecordError.h - Report a C API failure ------------------*- C++ -*-===//
//
// Lets C entry points outside Runtime.cpp set the thread's last error that
// sdpaGetLastError() returns. Private to the runtime library.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_LIB_RECORDERROR_H
#define SDPARUNTIME_LIB_RECORDERROR_H

#include "SdpaRuntime/SdpaRuntime.h"

#include <string>

namespace sdpa::runtime {

/// Stores `message` as this thread's last error and returns `status`.
SdpaStatus recordError(SdpaStatus status, std::string message);

} // namespace sdpa::runtime

#endif // SDPARUNTIME_LIB_RECORDERROR_H
