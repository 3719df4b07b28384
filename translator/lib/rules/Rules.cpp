//===- Rules.cpp - The list of rule families ------------------------------===//
#include "../Rules.h"

namespace cuhip::translate {

std::vector<std::unique_ptr<Rule>> createRules(TranslationContext &Ctx) {
  std::vector<std::unique_ptr<Rule>> Rules;
  Rules.push_back(createShadowedNameRule(Ctx));
  Rules.push_back(createKernelLaunchRule(Ctx));
  Rules.push_back(createUnmappedReferenceRule(Ctx));
  Rules.push_back(createTileMemberRule(Ctx));
  Rules.push_back(createWarpSizeRule(Ctx));
  Rules.push_back(createInlineAsmRule(Ctx));
  return Rules;
}

} // namespace cuhip::translate
