//===- Parser.h - PTX text to AST -----------------------------------------===//
#pragma once

#include "cuhip/ptx/AST.h"
#include "cuhip/ptx/Diagnostics.h"

#include <optional>
#include <string_view>

namespace cuhip::ptx {

/// Parses a whole PTX module. Problems go to Diags as file:line:col errors;
/// the result is empty when any error was reported. Never crashes, whatever
/// the input (it may contain NULs and need not be NUL-terminated).
std::optional<Module> parseModule(std::string_view Text,
                                  DiagnosticEngine &Diags);

} // namespace cuhip::ptx
