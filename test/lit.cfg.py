# -*- Python -*-
# lit configuration of the sdpa tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "SDPA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sdpa_obj_root, "test")
# Inputs/ hold files that other tests read.
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%sdpa_src_root", config.sdpa_src_root))
config.substitutions.append(("%sdpa_obj_root", config.sdpa_obj_root))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
config.substitutions.append(("%python", config.python_executable))

tool_dirs = [config.sdpa_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["sdpa-opt", "FileCheck", "not", "count"], tool_dirs)
config.substitutions.append(("%sdpa_opt", os.path.join(config.sdpa_tools_dir, "sdpa-opt")))

# PTX tests need only the NVPTX backend (in sdpa-opt) and ptxas.
ptxas = os.path.join(config.cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    # gpu-module-to-binary links libdevice (math.exp2 -> __nv_exp2f) from the
    # toolkit it finds through CUDA_HOME; lit does not pass the variable on.
    config.environment["CUDA_HOME"] = config.cuda_root
    config.substitutions.append(("%ptx_tool_state", "present"))
else:
    # Without ptxas the PTX tests are UNSUPPORTED, which a summary hides
    # among passes: say so here, and fail test/PTX/ptxas-available.test in
    # CI (CI=true), where they must run.
    lit_config.warning(
        "ptxas not found at %s: the PTX tests (test/PTX) do not run" % ptxas)
    in_ci = os.environ.get("CI") == "true"
    config.substitutions.append(
        ("%ptx_tool_state", "missing-in-ci" if in_ci else "missing"))

# Kernel launches need a GPU; CI has none.
if shutil.which("nvidia-smi") and os.environ.get("SDPA_GPU_TESTS") == "1":
    config.available_features.add("gpu")
