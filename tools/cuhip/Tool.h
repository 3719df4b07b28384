//===- Tool.h - Subcommands of the cuhip front end ------------------------===//
#pragma once

#include <string>

int cuhipRunMain(int argc, char **argv);
int cuhipExtractMain(int argc, char **argv);
int cuhipPtxMain(int argc, char **argv);
int cuhipInfoMain(int argc, char **argv);

/// Directory holding the running cuhip executable (build/bin or <prefix>/bin).
std::string cuhipBinDir();
