//===- AmdgpuCodegenTest.cpp - Backend failures are errors, not exits -----===//
//
// What LLVM's AMDGPU backend cannot select must come back from emitObject
// as an llvm::Error naming the problem: LLVM's default is to print and exit
// the process, which would take a CUDA program down with it. cuhip's own
// lowering never produces such IR (it rewrites 128-bit atomics, for one), so
// the module here is built by hand: a 128-bit cmpxchg, which no AMDGPU
// target has an instruction for.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/AmdgpuTarget.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

using namespace llvm;
namespace amdgpu = cuhip::ptx::amdgpu;

TEST(AmdgpuCodegen, UnselectableInstructionIsAnError) {
  const amdgpu::Target *T = amdgpu::findTarget("gfx942");
  ASSERT_NE(T, nullptr);
  auto TM = amdgpu::createTargetMachine(*T);
  ASSERT_TRUE(bool(TM)) << toString(TM.takeError());
  LLVMContext Ctx;
  Module M("unselectable", Ctx);
  M.setTargetTriple((*TM)->getTargetTriple());
  M.setDataLayout((*TM)->createDataLayout());
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx),
                                {PointerType::get(Ctx, 1)}, false);
  Function *F = Function::Create(FTy, GlobalValue::ExternalLinkage, "k", M);
  F->setCallingConv(CallingConv::AMDGPU_KERNEL);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Zero = B.getIntN(128, 0);
  B.CreateAtomicCmpXchg(F->getArg(0), Zero, Zero, Align(16),
                        AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
  B.CreateRetVoid();
  SmallVector<char, 0> Object;
  Error E = amdgpu::emitObject(M, **TM, Object);
  ASSERT_TRUE(bool(E));
  std::string Message = toString(std::move(E));
  EXPECT_NE(Message.find("the AMDGPU backend cannot compile this module"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("cmpxchg"), std::string::npos) << Message;
}
