//===- ErrorCodes.h - The CUDA driver error codes the emulator returns ----===//
//
// As cuda.h numbers them: what a launch fault or a driver call returns, and
// what cuGetErrorName names (lib/Driver.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_ERRORCODES_H
#define PTXEMULATOR_ERRORCODES_H

namespace sdpa::emu {

enum : int {
  kErrInvalidValue = 1,
  kErrOutOfMemory = 2,
  kErrNotInitialized = 3,
  kErrInvalidDevice = 101,
  kErrInvalidContext = 201,
  kErrInvalidPtx = 218,
  kErrInvalidHandle = 400,
  kErrNotFound = 500,
  kErrIllegalAddress = 700,
  kErrLaunchTimeout = 702,
  kErrMisalignedAddress = 716,
  kErrLaunchFailed = 719,
  kErrNotSupported = 801,
};

} // namespace sdpa::emu

#endif // PTXEMULATOR_ERRORCODES_H
