//===- Pipelines.h - Running LLVM pass pipelines over a module ------------===//
//
// The analysis-manager set-up the new pass manager needs, once, for every
// place that runs a pipeline (inlining device functions, each target's O3).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"

namespace cuhip::ptx {

/// Builds a module pipeline with Build (given a PassBuilder for TM, which
/// may be null) and runs it over M, with PIC's instrumentation if given.
template <typename BuildFn>
void runModulePipeline(llvm::Module &M, llvm::TargetMachine *TM,
                       const llvm::PipelineTuningOptions &PTO, BuildFn Build,
                       llvm::PassInstrumentationCallbacks *PIC = nullptr) {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB(TM, PTO, std::nullopt, PIC);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM = Build(PB);
  MPM.run(M, MAM);
}

/// LLVM's O3 pipeline for TM.
inline void runO3(llvm::Module &M, llvm::TargetMachine *TM,
                  const llvm::PipelineTuningOptions &PTO = {},
                  llvm::PassInstrumentationCallbacks *PIC = nullptr) {
  runModulePipeline(
      M, TM, PTO,
      [](llvm::PassBuilder &PB) {
        return PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
      },
      PIC);
}

} // namespace cuhip::ptx
