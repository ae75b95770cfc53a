//===- StablehloCommOps.td - Tokens, I/O and collectives ----*- tablegen -*-===//
//
// The ops of the StableHLO specification that order side effects with
// `!stablehlo.token` (after_all, infeed, outfeed, send, recv), the process
// ids, the collectives across replicas and partitions, and async_start /
// async_done, which run one of them asynchronously.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_COMMOPS_TD
#define SDPA_STABLEHLO_COMMOPS_TD

include "SdpaDialect/StableHLO/StablehloBase.td"

//===----------------------------------------------------------------------===//
// Tokens and I/O
//===----------------------------------------------------------------------===//

def Stablehlo_AfterAllOp : Stablehlo_Op<"after_all", [Pure]> {
  let summary = "A token after all the given ones";
  let description = [{
    Orders what uses the result after every op that produced the inputs:

        %2 = stablehlo.after_all %0, %1 : !stablehlo.token
  }];
  let arguments = (ins Variadic<Stablehlo_Token>:$inputs);
  let results = (outs Stablehlo_Token:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:`
    custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs),
                                              type($result))
  }];
}

/// An op that takes or gives a token and has a side effect; printed in the
/// generic form.
class Stablehlo_EffectOp<string mnemonic>
    : Stablehlo_Op<mnemonic, [MemoryEffects<[MemRead, MemWrite]>]>;

def Stablehlo_InfeedOp : Stablehlo_EffectOp<"infeed"> {
  let summary = "Read values from the infeed";
  let description = [{
    The values and a token (the last result):

        %0:2 = "stablehlo.infeed"(%t) <{infeed_config = ""}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  }];
  let arguments = (ins Stablehlo_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config,
                       OptionalAttr<ArrayAttr>:$layout);
  let results = (outs Variadic<Stablehlo_TensorOrToken>);
  let hasVerifier = 1;
}

def Stablehlo_OutfeedOp : Stablehlo_EffectOp<"outfeed"> {
  let summary = "Write values to the outfeed";
  let description = [{
        %1 = "stablehlo.outfeed"(%x, %t) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Stablehlo_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs Stablehlo_Token);
}

def Stablehlo_SendOp : Stablehlo_EffectOp<"send"> {
  let summary = "Send values over a channel";
  let description = [{
        %1 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Stablehlo_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Stablehlo_Token);
}

def Stablehlo_RecvOp : Stablehlo_EffectOp<"recv"> {
  let summary = "Receive values over a channel";
  let description = [{
    The values and a token (the last result):

        %0:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  }];
  let arguments = (ins Stablehlo_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Variadic<Stablehlo_TensorOrToken>);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Process ids
//===----------------------------------------------------------------------===//

def Stablehlo_ReplicaIdOp : Stablehlo_Op<"replica_id", [Pure]> {
  let summary = "The id of this replica";
  let description = [{
        %0 = stablehlo.replica_id : tensor<ui32>
  }];
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Stablehlo_PartitionIdOp : Stablehlo_Op<"partition_id", [Pure]> {
  let summary = "The id of this partition";
  let description = [{
        %0 = stablehlo.partition_id : tensor<ui32>
  }];
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

//===----------------------------------------------------------------------===//
// Collectives (generic form). `replica_groups` is a 2-d i64 tensor, one row
// per group of process ids.
//===----------------------------------------------------------------------===//

def Stablehlo_AllGatherOp : Stablehlo_Op<"all_gather"> {
  let summary = "Concatenate the operands of a group along a dimension";
  let description = [{
        %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Stablehlo_Tensor>);
}

def Stablehlo_AllReduceOp : Stablehlo_Op<"all_reduce",
    [RecursiveMemoryEffects]> {
  let summary = "Reduce the operands of a group with a body";
  let description = [{
    `results[k] = computation over the group's operands[k]`, the body as in
    `reduce` on two 0-d tensors:

        %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
        }) : (tensor<4xf32>) -> tensor<4xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

def Stablehlo_ReduceScatterOp : Stablehlo_Op<"reduce_scatter",
    [RecursiveMemoryEffects]> {
  let summary = "all_reduce, then each process keeps one block";
  let description = [{
    The group's reduction split along `scatter_dimension` into one block
    per process. Generic form, with a body as in `all_reduce`.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Stablehlo_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def Stablehlo_AllToAllOp : Stablehlo_Op<"all_to_all"> {
  let summary = "Exchange blocks between the processes of a group";
  let description = [{
    Each operand split into `split_count` blocks along `split_dimension`,
    block `j` sent to process `j`, the received blocks concatenated along
    `concat_dimension`:

        %1 = "stablehlo.all_to_all"(%0) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$split_dimension,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$concat_dimension,
                       ConfinedAttr<I64Attr, [IntPositive]>:$split_count,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<Stablehlo_Tensor>);
}

def Stablehlo_CollectiveBroadcastOp
    : Stablehlo_Op<"collective_broadcast"> {
  let summary = "The first process's operand to every process of its group";
  let description = [{
        %1 = "stablehlo.collective_broadcast"(%0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$has_dynamic_root);
  let results = (outs Variadic<Stablehlo_Tensor>);
}

def Stablehlo_CollectivePermuteOp : Stablehlo_Op<"collective_permute",
    [SameOperandsAndResultType]> {
  let summary = "Send the operand along source-target pairs";
  let description = [{
    Each process receives the operand of its source (zeros if none):

        %1 = "stablehlo.collective_permute"(%0) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs Stablehlo_Tensor);
}

def Stablehlo_CollectiveReduceOp : Stablehlo_Op<"collective_reduce",
    [RecursiveMemoryEffects]> {
  let summary = "Reduce the operands of a group with a body";
  let description = [{
    Like `all_reduce`. Generic form, with a body as in `all_reduce`.
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids,
                       UnitAttr:$has_dynamic_root);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

//===----------------------------------------------------------------------===//
// Asynchronous execution
//===----------------------------------------------------------------------===//

def Stablehlo_AsyncStartOp : Stablehlo_Op<"async_start",
    [RecursiveMemoryEffects]> {
  let summary = "Start one collective or slice asynchronously";
  let description = [{
    The body holds one op (a collective: `all_gather`, `all_reduce`,
    `all_to_all`, `collective_broadcast`, `collective_permute`,
    `reduce_scatter`; or a slice: `slice`, `dynamic_slice`,
    `dynamic_update_slice`) applied to the operands, and returns its
    results; `result` is a future of their types, which
    `stablehlo.async_done` waits for. A backend may still run it
    synchronously. Generic form:

        %0 = "stablehlo.async_start"(%x) ({
          %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
          stablehlo.return %1 : tensor<2x4xf32>
        }) : (tensor<2x2xf32>) -> !stablehlo.future<tensor<2x4xf32>>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands);
  let results = (outs Stablehlo_Future:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasRegionVerifier = 1;
}

def Stablehlo_AsyncDoneOp : Stablehlo_Op<"async_done"> {
  let summary = "Wait for an asynchronous op";
  let description = [{
    The values of the op `stablehlo.async_start` started, of the types of
    the future:

        %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<2x4xf32>>) -> tensor<2x4xf32>
  }];
  let arguments = (ins Stablehlo_Future:$operand);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let hasVerifier = 1;
}

#endif // SDPA_STABLEHLO_COMMOPS_TD
