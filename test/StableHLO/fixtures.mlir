// Every fixture prints back exactly as JAX printed it: the isolated attention
// graphs and the whole models (test/Import/Inputs/models/README.txt).
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_causal_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_causal_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_causal_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_causal_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_causal_swa_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_causal_swa_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_causal_swa_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_full_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_full_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_full_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_full_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_gqa_causal_swa_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_gqa_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_cudnn_seqlens_causal_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_cudnn_seqlens_causal_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_causal_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_causal_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_causal_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_causal_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_causal_swa_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_causal_swa_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_causal_swa_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_full_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_full_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_full_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_full_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_swa_sym_bwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_swa_sym_bwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/jax_xla_swa_sym_fwd.mlir | diff -I '^$' %S/../Import/Inputs/jax_xla_swa_sym_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/flax_nnx_mha_window32_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/flax_nnx_mha_window32_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/flax_nnx_mha_window32_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/flax_nnx_mha_window32_vg.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/gemma2_like_softcap_xla_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gemma2_like_softcap_xla_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/gemma2_like_softcap_xla_vg.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_like_cudnn_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_like_cudnn_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_like_cudnn_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_like_cudnn_vg.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_like_xla_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_like_xla_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_like_xla_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_like_xla_vg.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_sinks_xla_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_sinks_xla_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/gptoss_sinks_xla_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/gptoss_sinks_xla_vg.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/mistral_like_cudnn_fwd.mlir | diff -I '^$' %S/../Import/Inputs/models/mistral_like_cudnn_fwd.mlir -
// RUN: %sdpa_opt %S/../Import/Inputs/models/mistral_like_cudnn_vg.mlir | diff -I '^$' %S/../Import/Inputs/models/mistral_like_cudnn_vg.mlir -
// And in generic form, which exercises the ops' attribute storage.
// RUN: %sdpa_opt --mlir-print-op-generic %S/../Import/Inputs/jax_xla_causal_swa_fwd.mlir | %sdpa_opt | diff -I '^$' %S/../Import/Inputs/jax_xla_causal_swa_fwd.mlir -
// RUN: %sdpa_opt --mlir-print-op-generic %S/../Import/Inputs/jax_cudnn_causal_swa_bwd.mlir | %sdpa_opt | diff -I '^$' %S/../Import/Inputs/jax_cudnn_causal_swa_bwd.mlir -
// RUN: %sdpa_opt --mlir-print-op-generic %S/../Import/Inputs/models/gptoss_like_xla_vg.mlir | %sdpa_opt | diff -I '^$' %S/../Import/Inputs/models/gptoss_like_xla_vg.mlir -
// RUN: %sdpa_opt --mlir-print-op-generic %S/../Import/Inputs/models/mistral_like_cudnn_vg.mlir | %sdpa_opt | diff -I '^$' %S/../Import/Inputs/models/mistral_like_cudnn_vg.mlir -

