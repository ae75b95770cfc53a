//===- DeviceTensors.cpp - Host tensors on the device, in a layout --------===//

#include "DeviceTensors.h"

#include "PtxEmulator/FloatBits.h"
#include "SdpaRuntime/ArgCheck.h"

#include <cstring>
#include <limits>
#include <stdexcept>

namespace sdpa::check {

using runtime::kCudaSuccess;

namespace {

int elementBytes(int32_t dtype) {
  return dtype == SDPA_DTYPE_F16 || dtype == SDPA_DTYPE_BF16 ? 2 : 4;
}

void check(const runtime::CudaDriver &cuda, const char *call,
           runtime::CUresult result) {
  if (result != kCudaSuccess)
    throw std::runtime_error(cuda.describe(call, result));
}

void store(int32_t dtype, double x, uint8_t *at) {
  if (dtype == SDPA_DTYPE_F16 || dtype == SDPA_DTYPE_BF16) {
    uint16_t bits = dtype == SDPA_DTYPE_F16 ? emu::f32ToF16(float(x))
                                            : emu::f32ToBF16(float(x));
    std::memcpy(at, &bits, 2);
    return;
  }
  float value = float(x);
  std::memcpy(at, &value, 4);
}

double load(int32_t dtype, const uint8_t *at) {
  if (dtype == SDPA_DTYPE_F16 || dtype == SDPA_DTYPE_BF16) {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return dtype == SDPA_DTYPE_F16 ? emu::f16ToF32(bits) : emu::bf16ToF32(bits);
  }
  float value;
  std::memcpy(&value, at, 4);
  return value;
}

SdpaTensor contiguous(uint64_t address, int32_t dtype,
                      std::vector<int64_t> shape) {
  SdpaTensor t{};
  t.data = address;
  t.dtype = dtype;
  t.rank = int32_t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t.shape[i] = shape[i];
  runtime::setContiguousStrides(t);
  return t;
}

} // namespace

double roundTo(int32_t dtype, double x) {
  uint8_t bytes[4];
  store(dtype, x, bytes);
  return load(dtype, bytes);
}

DeviceBuffer::DeviceBuffer(const runtime::CudaDriver &cuda, size_t bytes)
    : cuda(cuda), bytes_(bytes) {
  // A zero-byte problem still gets an address (the runtime refuses null).
  check(cuda, "cuMemAlloc", cuda.cuMemAlloc(&address_, bytes ? bytes : 16));
}

DeviceBuffer::~DeviceBuffer() { cuda.cuMemFree(address_); }

void DeviceBuffer::write(const std::vector<uint8_t> &data) {
  if (data.size() != bytes_)
    throw std::logic_error("device buffer written with the wrong size");
  if (bytes_)
    check(cuda, "cuMemcpyHtoD",
          cuda.cuMemcpyHtoD(address_, data.data(), bytes_));
}

std::vector<uint8_t> DeviceBuffer::read() const {
  std::vector<uint8_t> data(bytes_);
  if (bytes_)
    check(cuda, "cuMemcpyDtoH",
          cuda.cuMemcpyDtoH(data.data(), address_, bytes_));
  return data;
}

void DeviceBuffer::poison(int elementBytes) {
  std::vector<uint8_t> data(bytes_);
  const uint8_t halfNaN[2] = {0xff, 0x7f};
  const uint8_t floatNaN[4] = {0x00, 0x00, 0xc0, 0x7f};
  for (size_t i = 0; i < bytes_; ++i)
    data[i] = elementBytes == 2 ? halfNaN[i % 2] : floatNaN[i % 4];
  write(data);
}

int64_t TensorPlacement::heads() const {
  return keyValue ? shape->headsKv : shape->headsQ;
}

const std::vector<int64_t> &TensorPlacement::seq() const {
  return keyValue ? shape->seqKv : shape->seqQ;
}

int64_t TensorPlacement::elements() const {
  return (keyValue ? shape->totalKv() : shape->totalQ()) * heads() *
         shape->headDim;
}

int64_t TensorPlacement::index(int64_t b, int64_t h, int64_t row) const {
  int64_t first = keyValue ? shape->firstRowKv(b) : shape->firstRowQ(b);
  int64_t d = shape->headDim;
  switch (layout) {
  case SDPA_LAYOUT_BHSD:
    return ((b * heads() + h) * seq()[b] + row) * d;
  case SDPA_LAYOUT_BSHD:
    return ((b * seq()[b] + row) * heads() + h) * d;
  default: // THD
    return ((first + row) * heads() + h) * d;
  }
}

std::vector<std::pair<int64_t, int64_t>> TensorPlacement::rowStarts() const {
  std::vector<std::pair<int64_t, int64_t>> starts;
  for (int64_t b = 0; b < int64_t(seq().size()); ++b)
    for (int64_t h = 0; h < heads(); ++h)
      for (int64_t row = 0; row < seq()[b]; ++row)
        starts.emplace_back(keyValue ? shape->offsetKv(b, h, row)
                                     : shape->offsetQ(b, h, row),
                            index(b, h, row));
  return starts;
}

SdpaTensor TensorPlacement::describe(uint64_t address) const {
  int64_t d = shape->headDim;
  int64_t batch = int64_t(seq().size());
  switch (layout) {
  case SDPA_LAYOUT_BHSD:
    return contiguous(address, dtype, {batch, heads(), seq()[0], d});
  case SDPA_LAYOUT_BSHD:
    return contiguous(address, dtype, {batch, seq()[0], heads(), d});
  default:
    return contiguous(address, dtype,
                      {keyValue ? shape->totalKv() : shape->totalQ(),
                       heads(), d});
  }
}

std::vector<uint8_t>
TensorPlacement::encode(const std::vector<double> &canonical) const {
  int size = elementBytes(dtype);
  std::vector<uint8_t> bytes(elements() * size);
  for (auto [from, to] : rowStarts())
    for (int64_t c = 0; c < shape->headDim; ++c)
      store(dtype, canonical[from + c], &bytes[(to + c) * size]);
  return bytes;
}

std::vector<double>
TensorPlacement::decode(const std::vector<uint8_t> &bytes) const {
  int size = elementBytes(dtype);
  std::vector<double> canonical(elements());
  for (auto [to, from] : rowStarts())
    for (int64_t c = 0; c < shape->headDim; ++c)
      canonical[to + c] = load(dtype, &bytes[(from + c) * size]);
  return canonical;
}

int64_t RowPlacement::index(int64_t b, int64_t h, int64_t row) const {
  if (packed)
    return h * shape->totalQ() + shape->firstRowQ(b) + row;
  return (b * shape->headsQ + h) * shape->seqQ[b] + row;
}

std::vector<std::pair<int64_t, int64_t>> RowPlacement::rowStarts() const {
  std::vector<std::pair<int64_t, int64_t>> starts;
  for (int64_t b = 0; b < int64_t(shape->seqQ.size()); ++b)
    for (int64_t h = 0; h < shape->headsQ; ++h)
      for (int64_t row = 0; row < shape->seqQ[b]; ++row)
        starts.emplace_back(shape->offsetLse(b, h, row), index(b, h, row));
  return starts;
}

SdpaTensor RowPlacement::describe(uint64_t address) const {
  if (packed)
    return contiguous(address, SDPA_DTYPE_F32,
                      {shape->headsQ, shape->totalQ()});
  return contiguous(address, SDPA_DTYPE_F32,
                    {int64_t(shape->seqQ.size()), shape->headsQ,
                     shape->seqQ[0]});
}

std::vector<uint8_t>
RowPlacement::encode(const std::vector<double> &canonical) const {
  std::vector<uint8_t> bytes(canonical.size() * 4);
  for (auto [from, to] : rowStarts())
    store(SDPA_DTYPE_F32, canonical[from], &bytes[to * 4]);
  return bytes;
}

std::vector<double>
RowPlacement::decode(const std::vector<uint8_t> &bytes) const {
  std::vector<double> canonical(bytes.size() / 4);
  for (auto [to, from] : rowStarts())
    canonical[to] = load(SDPA_DTYPE_F32, &bytes[from * 4]);
  return canonical;
}

SdpaTensor describeVector(uint64_t address, int32_t dtype, int64_t elements) {
  return contiguous(address, dtype, {elements});
}

std::vector<uint8_t> encodeF32(const std::vector<double> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  for (size_t i = 0; i < values.size(); ++i)
    store(SDPA_DTYPE_F32, values[i], &bytes[i * 4]);
  return bytes;
}

std::vector<double> decodeF32(const std::vector<uint8_t> &bytes) {
  std::vector<double> values(bytes.size() / 4);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = load(SDPA_DTYPE_F32, &bytes[i * 4]);
  return values;
}

} // namespace sdpa::check
