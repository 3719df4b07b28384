# lit configuration for cuhip's compiler tests. Test files are .ptx (the PTX
# frontend through `cuhip ptx`), .cu (the source translator, in the manner of
# clang-tidy's checker tests: the input with CHECK lines showing the output)
# and .test (other tool behaviour).
import os
import lit.formats

config.name = "cuhip"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ptx", ".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuhip_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.cuhip_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["CUHIP_CACHE_DIR"] = os.path.join(config.test_exec_root, "cache")
# Longer names first: lit substitutes in order.
config.substitutions.append(("%cuhip_lib", config.cuhip_lib_dir))
config.substitutions.append(("%cuhip_src", config.cuhip_src_root))
config.substitutions.append(("%cuhip", os.path.join(config.cuhip_bin_dir, "cuhip")))
config.substitutions.append(("FileCheck", config.filecheck))
# The translator parses CUDA with a toolkit's headers.
if config.cuda_path and os.path.exists(os.path.join(config.cuda_path, "include", "cuda.h")):
    config.available_features.add("cuda-headers")
    config.substitutions.append(("%cuda_path", config.cuda_path))
if os.path.exists("/usr/include/hip/hip_runtime.h") and config.hipcc:
    config.available_features.add("hipcc")
    config.substitutions.append(("%hipcc", config.hipcc))
# HIP libraries whose headers Debian ships (libhiprand-dev with
# librocrand-dev, libhipsparse-dev): tests that compile translated library
# code need them.
for lib, headers in (("hiprand", ("hiprand/hiprand.h", "rocrand/rocrand.h")),
                     ("hipsparse", ("hipsparse/hipsparse.h",))):
    if all(os.path.exists(os.path.join("/usr/include", h)) for h in headers):
        config.available_features.add(lib)
# cuhip nvcc's AMD mode: HIP's headers plus the LLVM tools it runs (the
# bundler is in Debian's clang-tools package).
if os.path.exists("/usr/include/hip/hip_runtime.h") and os.path.exists(
        os.path.join(config.llvm_tools_dir, "clang-offload-bundler")):
    config.available_features.add("hip-offload")
if config.nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
