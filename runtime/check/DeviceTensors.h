//===- DeviceTensors.h - Host tensors on the device, in a layout ----------===//
//
// Device buffers for sdpa-kernel-check: canonical float64 tensors
// (AttentionReference.h) written in a kernel layout (bhsd, bshd, THD) and
// element type (f16, bf16, f32), and read back; every buffer can be poisoned
// with NaN first, so an element a kernel never writes shows.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_CHECK_DEVICETENSORS_H
#define SDPARUNTIME_CHECK_DEVICETENSORS_H

#include "AttentionReference.h"
#include "SdpaRuntime/CudaDriver.h"
#include "SdpaRuntime/SdpaRuntime.h"

#include <string>
#include <utility>
#include <vector>

namespace sdpa::check {

/// The element value `x` takes when stored as `dtype` (SdpaDtype).
double roundTo(int32_t dtype, double x);

/// A device allocation; freed with the object.
class DeviceBuffer {
public:
  DeviceBuffer(const runtime::CudaDriver &cuda, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  uint64_t address() const { return address_; }
  size_t bytes() const { return bytes_; }
  void write(const std::vector<uint8_t> &data);
  std::vector<uint8_t> read() const;
  /// Fills the buffer with NaN of element size `elementBytes` (2 or 4).
  void poison(int elementBytes);

private:
  const runtime::CudaDriver &cuda;
  runtime::CUdeviceptr address_ = 0;
  size_t bytes_ = 0;
};

/// A q-like or kv-like tensor of a problem, placed in a layout.
struct TensorPlacement {
  const ProblemShape *shape;
  int32_t layout; // SdpaLayout
  int32_t dtype;  // SdpaDtype
  bool keyValue;  // kv-like (heads_kv, s_kv) instead of q-like

  int64_t heads() const;
  /// Each sequence's rows (s_q or s_kv).
  const std::vector<int64_t> &seq() const;
  int64_t elements() const;
  /// Element index of (b, h, row, 0) in the layout.
  int64_t index(int64_t b, int64_t h, int64_t row) const;
  /// (canonical offset, layout index) of the first element of every row.
  std::vector<std::pair<int64_t, int64_t>> rowStarts() const;
  /// The runtime's descriptor of the tensor at `address`.
  SdpaTensor describe(uint64_t address) const;
  /// Canonical values -> the layout's bytes, and back.
  std::vector<uint8_t> encode(const std::vector<double> &canonical) const;
  std::vector<double> decode(const std::vector<uint8_t> &bytes) const;
};

/// LSE-like f32 tensors: dense [B, Hq, Sq], THD [Hq, Tq].
struct RowPlacement {
  const ProblemShape *shape;
  bool packed; // THD

  int64_t index(int64_t b, int64_t h, int64_t row) const;
  /// (canonical offset, layout index) of every row's value.
  std::vector<std::pair<int64_t, int64_t>> rowStarts() const;
  SdpaTensor describe(uint64_t address) const;
  std::vector<uint8_t> encode(const std::vector<double> &canonical) const;
  std::vector<double> decode(const std::vector<uint8_t> &bytes) const;
};

/// A one-dimensional tensor of `elements` values of `dtype`.
SdpaTensor describeVector(uint64_t address, int32_t dtype, int64_t elements);

/// f32 bytes of `values` and back.
std::vector<uint8_t> encodeF32(const std::vector<double> &values);
std::vector<double> decodeF32(const std::vector<uint8_t> &bytes);

} // namespace sdpa::check

#endif // SDPARUNTIME_CHECK_DEVICETENSORS_H
