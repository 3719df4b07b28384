//===- CodegenDiagnostics.h - Backend errors as values, not exits ---------===//
//
// LLVM's backends report what they cannot select (a 16-bit cmpxchg on
// AMDGPU, say) through the LLVMContext; with no handler installed LLVM
// prints the message and exits the process. Inside a user's program that
// must never happen, so every code-generation run goes through here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace cuhip::ptx {

/// Runs PM over M and returns the backend's error messages ("" if none).
inline std::string runCodegenCollectingErrors(llvm::legacy::PassManager &PM,
                                              llvm::Module &M) {
  llvm::LLVMContext &Ctx = M.getContext();
  std::string Errors;
  auto OldHandler = Ctx.getDiagnosticHandlerCallBack();
  void *OldContext = Ctx.getDiagnosticContext();
  Ctx.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *DI, void *C) {
        if (DI->getSeverity() != llvm::DS_Error)
          return;
        std::string Msg;
        llvm::raw_string_ostream OS(Msg);
        llvm::DiagnosticPrinterRawOStream DP(OS);
        DI->print(DP);
        auto &Errs = *static_cast<std::string *>(C);
        Errs += (Errs.empty() ? "" : "; ") + OS.str();
      },
      &Errors);
  PM.run(M);
  Ctx.setDiagnosticHandlerCallBack(OldHandler, OldContext);
  return Errors;
}

} // namespace cuhip::ptx
