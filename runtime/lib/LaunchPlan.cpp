//===- LaunchPlan.cpp - Grid formation and kernel parameter packing -------===//

#include "SdpaRuntime/LaunchPlan.h"

#include <cstring>

using namespace sdpa::runtime;

int64_t sdpa::runtime::gridTermValue(GridTerm term, const GridValues &values,
                                     unsigned blockX) {
  switch (term) {
  case GridTerm::QTiles:
    return values.qTiles;
  case GridTerm::KvTiles:
    return values.kvTiles;
  case GridTerm::HeadsQ:
    return values.headsQ;
  case GridTerm::HeadsKv:
    return values.headsKv;
  case GridTerm::Batch:
    return values.batch;
  case GridTerm::One:
    return 1;
  case GridTerm::Rows:
    return blockX == 0 ? 0 : (values.totalRows + blockX - 1) / blockX;
  }
  return 0;
}

bool sdpa::runtime::formGrid(const Kernel &kernel, const GridValues &values,
                             std::array<unsigned, 3> &grid,
                             std::string &error) {
  static const char axes[] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; ++i) {
    int64_t value = gridTermValue(kernel.grid[i], values, kernel.block[0]);
    int64_t limit = i == 0 ? kMaxGridX : kMaxGridYZ;
    if (value < 0 || value > limit) {
      error = "grid: kernel '" + kernel.name + "' dimension " + axes[i] +
              " = " + std::to_string(value) + " (" + toString(kernel.grid[i]) +
              ") exceeds the limit " + std::to_string(limit);
      return false;
    }
    grid[i] = static_cast<unsigned>(value);
  }
  return true;
}

bool PackedParams::pack(const Kernel &kernel, const ParamTable &table,
                        std::string &error) {
  storage.assign(kernel.params.size() * 8, 0);
  pointers.assign(kernel.params.size(), nullptr);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const Param &param = kernel.params[i];
    auto it = table.find(param.name);
    if (it == table.end()) {
      error = "param: kernel '" + kernel.name + "' takes '" + param.name +
              "', which these arguments do not provide";
      return false;
    }
    const ParamValue &value = it->second;
    if (value.type != param.type) {
      error = "param: kernel '" + kernel.name + "' takes '" + param.name +
              "' as " + toString(param.type) + ", the value is " +
              toString(value.type);
      return false;
    }
    unsigned char *slot = &storage[i * 8];
    switch (param.type) {
    case ParamType::Ptr:
      std::memcpy(slot, &value.ptr, sizeof(value.ptr));
      break;
    case ParamType::I32:
      std::memcpy(slot, &value.i32, sizeof(value.i32));
      break;
    case ParamType::I64:
      std::memcpy(slot, &value.i64, sizeof(value.i64));
      break;
    case ParamType::F32:
      std::memcpy(slot, &value.f32, sizeof(value.f32));
      break;
    }
    pointers[i] = slot;
  }
  return true;
}
