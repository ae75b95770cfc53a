//===- XlaHandlers.cpp - The XLA FFI handlers of the sdpa_* targets -------===//
//
// Typed XLA FFI handlers (built against the headers jaxlib ships,
// jax.ffi.include_dir()) for the calls sdpa-export-ffi-calls writes
// (sdpa_forward, sdpa_backward and their _sinks variants): decode
// buffers and attributes, check them against the cached artifact, launch
// through the runtime on XLA's stream. Every problem comes back as an FFI
// error naming it (docs/Export.md).
//
//===----------------------------------------------------------------------===//

#include "FfiCall.h"

#include "xla/ffi/api/ffi.h"

#include <cstdlib>
#include <string>

namespace xffi = xla::ffi;
using sdpa::ffi::CachedArtifact;
using sdpa::ffi::CallAttrs;

namespace {

xffi::Error fail(const char *target, xffi::ErrorCode code,
                 const std::string &message) {
  return xffi::Error(code, std::string(target) + ": " + message);
}

/// The runtime's status as an FFI error code.
xffi::ErrorCode codeOf(SdpaStatus status) {
  switch (status) {
  case SDPA_ERROR_INVALID_ARGUMENT:
  case SDPA_ERROR_INVALID_MANIFEST:
    return xffi::ErrorCode::kInvalidArgument;
  case SDPA_ERROR_IO:
    return xffi::ErrorCode::kNotFound;
  case SDPA_ERROR_UNSUPPORTED:
    return xffi::ErrorCode::kUnimplemented;
  case SDPA_ERROR_INDEX_RANGE:
    return xffi::ErrorCode::kOutOfRange;
  default:
    return xffi::ErrorCode::kInternal;
  }
}

bool toTensor(const char *name, const xffi::AnyBuffer &buffer,
              SdpaTensor &out, std::string &error) {
  int32_t dtype;
  switch (buffer.element_type()) {
  case xffi::DataType::F16:
    dtype = SDPA_DTYPE_F16;
    break;
  case xffi::DataType::BF16:
    dtype = SDPA_DTYPE_BF16;
    break;
  case xffi::DataType::F32:
    dtype = SDPA_DTYPE_F32;
    break;
  case xffi::DataType::S32:
    dtype = SDPA_DTYPE_I32;
    break;
  default:
    error = std::string(name) + ": unsupported element type (XLA code " +
            std::to_string(static_cast<int>(buffer.element_type())) + ")";
    return false;
  }
  auto dims = buffer.dimensions();
  return sdpa::ffi::makeTensor(name, dtype, dims.begin(), dims.size(),
                               buffer.untyped_data(), out, error);
}

/// Loads and checks the artifact of a call; null with `error` set on failure.
const CachedArtifact *prepare(const CallAttrs &attrs, bool backward,
                              int32_t &layout, std::string &error) {
  std::string path =
      sdpa::ffi::manifestPathFor(attrs.artifact, std::getenv("SDPA_ARTIFACT_DIR"));
  const CachedArtifact *cached = sdpa::ffi::loadArtifact(path, error);
  if (!cached)
    return nullptr;
  error = sdpa::ffi::checkCall(*cached, attrs, backward, layout);
  return error.empty() ? cached : nullptr;
}

/// The forward of `target`; `sinks` is null for the sink-less target.
xffi::Error runForward(const char *target, void *stream, xffi::AnyBuffer q,
                       xffi::AnyBuffer k, xffi::AnyBuffer v,
                       const xffi::AnyBuffer *sinks,
                       xffi::Result<xffi::AnyBuffer> o,
                       xffi::Result<xffi::AnyBuffer> lse, CallAttrs attrs) {
  attrs.sinks = sinks != nullptr;
  SdpaForwardArgs args{};
  std::string error;
  const CachedArtifact *cached = prepare(attrs, false, args.layout, error);
  if (!cached)
    return fail(target, xffi::ErrorCode::kInvalidArgument, error);
  if (!toTensor("q", q, args.q, error) || !toTensor("k", k, args.k, error) ||
      !toTensor("v", v, args.v, error) || !toTensor("o", *o, args.o, error) ||
      !toTensor("lse", *lse, args.lse, error) ||
      (sinks && !toTensor("sinks", *sinks, args.sinks, error)))
    return fail(target, xffi::ErrorCode::kInvalidArgument, error);
  SdpaStatus status = sdpaForward(cached->artifact, &args, stream);
  if (status != SDPA_SUCCESS)
    return fail(target, codeOf(status), sdpaGetLastError());
  return xffi::Error::Success();
}

/// The sinks' buffers of a backward call.
struct BackwardSinks {
  xffi::AnyBuffer sinks;
  xffi::Result<xffi::AnyBuffer> gradSinks, dsinkPartials;
};

/// The backward of `target`; `sinks` is null for the sink-less target.
xffi::Error runBackward(const char *target, void *stream, xffi::AnyBuffer q,
                        xffi::AnyBuffer k, xffi::AnyBuffer v,
                        xffi::AnyBuffer o, xffi::AnyBuffer dout,
                        xffi::AnyBuffer lse, xffi::Result<xffi::AnyBuffer> dq,
                        xffi::Result<xffi::AnyBuffer> dk,
                        xffi::Result<xffi::AnyBuffer> dv,
                        xffi::Result<xffi::AnyBuffer> dqAccum,
                        xffi::Result<xffi::AnyBuffer> delta,
                        xffi::Result<xffi::AnyBuffer> relayCounters,
                        BackwardSinks *sinks, CallAttrs attrs) {
  attrs.sinks = sinks != nullptr;
  SdpaBackwardArgs args{};
  std::string error;
  const CachedArtifact *cached = prepare(attrs, true, args.layout, error);
  if (!cached)
    return fail(target, xffi::ErrorCode::kInvalidArgument, error);
  if (!toTensor("q", q, args.q, error) || !toTensor("k", k, args.k, error) ||
      !toTensor("v", v, args.v, error) || !toTensor("o", o, args.o, error) ||
      !toTensor("do", dout, args.dout, error) ||
      !toTensor("lse", lse, args.lse, error) ||
      !toTensor("dq", *dq, args.dq, error) ||
      !toTensor("dk", *dk, args.dk, error) ||
      !toTensor("dv", *dv, args.dv, error) ||
      !toTensor("dq_accum", *dqAccum, args.dq_accum, error) ||
      !toTensor("delta", *delta, args.delta, error) ||
      !toTensor("relay_counters", *relayCounters, args.relay_counters,
                error) ||
      (sinks &&
       (!toTensor("sinks", sinks->sinks, args.sinks, error) ||
        !toTensor("grad_sinks", *sinks->gradSinks, args.grad_sinks, error) ||
        !toTensor("dsink_partials", *sinks->dsinkPartials,
                  args.dsink_partials, error))))
    return fail(target, xffi::ErrorCode::kInvalidArgument, error);
  SdpaStatus status = sdpaBackward(cached->artifact, &args, stream);
  if (status != SDPA_SUCCESS)
    return fail(target, codeOf(status), sdpaGetLastError());
  return xffi::Error::Success();
}

xffi::Error forward(void *stream, xffi::AnyBuffer q, xffi::AnyBuffer k,
                    xffi::AnyBuffer v, xffi::Result<xffi::AnyBuffer> o,
                    xffi::Result<xffi::AnyBuffer> lse,
                    std::string_view artifact, std::string_view kernel,
                    std::string_view layout, int64_t left, int64_t right,
                    bool bottomRight, float scale, float softcap) {
  return runForward("sdpa_forward", stream, q, k, v, nullptr, o, lse,
                    {artifact, kernel, layout, left, right, bottomRight, scale,
                     softcap, std::nullopt});
}

xffi::Error forwardSinks(void *stream, xffi::AnyBuffer q, xffi::AnyBuffer k,
                         xffi::AnyBuffer v, xffi::AnyBuffer sinks,
                         xffi::Result<xffi::AnyBuffer> o,
                         xffi::Result<xffi::AnyBuffer> lse,
                         std::string_view artifact, std::string_view kernel,
                         std::string_view layout, int64_t left, int64_t right,
                         bool bottomRight, float scale, float softcap) {
  return runForward("sdpa_forward_sinks", stream, q, k, v, &sinks, o, lse,
                    {artifact, kernel, layout, left, right, bottomRight, scale,
                     softcap, std::nullopt});
}

xffi::Error backward(void *stream, xffi::AnyBuffer q, xffi::AnyBuffer k,
                     xffi::AnyBuffer v, xffi::AnyBuffer o, xffi::AnyBuffer dout,
                     xffi::AnyBuffer lse, xffi::Result<xffi::AnyBuffer> dq,
                     xffi::Result<xffi::AnyBuffer> dk,
                     xffi::Result<xffi::AnyBuffer> dv,
                     xffi::Result<xffi::AnyBuffer> dqAccum,
                     xffi::Result<xffi::AnyBuffer> delta,
                     xffi::Result<xffi::AnyBuffer> relayCounters,
                     std::string_view artifact, std::string_view kernel,
                     std::string_view layout, int64_t left, int64_t right,
                     bool bottomRight, float scale, float softcap,
                     bool deterministic) {
  return runBackward("sdpa_backward", stream, q, k, v, o, dout, lse, dq, dk,
                     dv, dqAccum, delta, relayCounters, nullptr,
                     {artifact, kernel, layout, left, right, bottomRight,
                      scale, softcap, deterministic});
}

xffi::Error backwardSinks(
    void *stream, xffi::AnyBuffer q, xffi::AnyBuffer k, xffi::AnyBuffer v,
    xffi::AnyBuffer o, xffi::AnyBuffer dout, xffi::AnyBuffer lse,
    xffi::AnyBuffer sinks, xffi::Result<xffi::AnyBuffer> dq,
    xffi::Result<xffi::AnyBuffer> dk, xffi::Result<xffi::AnyBuffer> dv,
    xffi::Result<xffi::AnyBuffer> gradSinks,
    xffi::Result<xffi::AnyBuffer> dqAccum, xffi::Result<xffi::AnyBuffer> delta,
    xffi::Result<xffi::AnyBuffer> relayCounters,
    xffi::Result<xffi::AnyBuffer> dsinkPartials, std::string_view artifact,
    std::string_view kernel, std::string_view layout, int64_t left,
    int64_t right, bool bottomRight, float scale, float softcap,
    bool deterministic) {
  BackwardSinks withSinks{sinks, gradSinks, dsinkPartials};
  return runBackward("sdpa_backward_sinks", stream, q, k, v, o, dout, lse, dq,
                     dk, dv, dqAccum, delta, relayCounters, &withSinks,
                     {artifact, kernel, layout, left, right, bottomRight,
                      scale, softcap, deterministic});
}

/// The attributes both directions share, in the handlers' parameter order.
template <typename Binding>
auto bindCommonAttrs(Binding binding) {
  return std::move(binding)
      .template Attr<std::string_view>("artifact")
      .template Attr<std::string_view>("kernel")
      .template Attr<std::string_view>("layout")
      .template Attr<int64_t>("left")
      .template Attr<int64_t>("right")
      .template Attr<bool>("bottom_right")
      .template Attr<float>("scale")
      .template Attr<float>("softcap");
}

} // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    SdpaFfiForward, forward,
    bindCommonAttrs(xffi::Ffi::Bind()
                        .Ctx<xffi::PlatformStream<void *>>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()));

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    SdpaFfiBackward, backward,
    bindCommonAttrs(xffi::Ffi::Bind()
                        .Ctx<xffi::PlatformStream<void *>>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Arg<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>()
                        .Ret<xffi::AnyBuffer>())
        .Attr<bool>("deterministic"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    SdpaFfiForwardSinks, forwardSinks,
    bindCommonAttrs(xffi::Ffi::Bind()
                        .Ctx<xffi::PlatformStream<void *>>()
                        .Arg<xffi::AnyBuffer>() // q
                        .Arg<xffi::AnyBuffer>() // k
                        .Arg<xffi::AnyBuffer>() // v
                        .Arg<xffi::AnyBuffer>() // sinks
                        .Ret<xffi::AnyBuffer>() // o
                        .Ret<xffi::AnyBuffer>())); // lse

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    SdpaFfiBackwardSinks, backwardSinks,
    bindCommonAttrs(xffi::Ffi::Bind()
                        .Ctx<xffi::PlatformStream<void *>>()
                        .Arg<xffi::AnyBuffer>() // q
                        .Arg<xffi::AnyBuffer>() // k
                        .Arg<xffi::AnyBuffer>() // v
                        .Arg<xffi::AnyBuffer>() // o
                        .Arg<xffi::AnyBuffer>() // do
                        .Arg<xffi::AnyBuffer>() // lse
                        .Arg<xffi::AnyBuffer>() // sinks
                        .Ret<xffi::AnyBuffer>() // dq
                        .Ret<xffi::AnyBuffer>() // dk
                        .Ret<xffi::AnyBuffer>() // dv
                        .Ret<xffi::AnyBuffer>() // grad_sinks
                        .Ret<xffi::AnyBuffer>() // dq_accum
                        .Ret<xffi::AnyBuffer>() // delta
                        .Ret<xffi::AnyBuffer>() // relay_counters
                        .Ret<xffi::AnyBuffer>()) // dsink_partials
        .Attr<bool>("deterministic"));
