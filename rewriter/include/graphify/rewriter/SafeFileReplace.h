#pragma once
/// \file
/// Replacing a source file's content the way --fix promises: all or nothing, never over an edit
/// made since the analysis, keeping what the user set up around the file (symlinks, mode, owner).

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

namespace graphify::rewriter {

/// Replaces the content of `Path`, which must still be `Expected`, with `Content`.
/// - A symlink stays a symlink: its target is replaced (in the target's directory).
/// - The new file gets the old one's permission bits and owner; if the owner cannot be kept,
///   nothing is written.
/// - Refused, with nothing written: a file with no write permission (even for root), a file with
///   several hard links (a rename would split them, an in-place write is not atomic), a file that
///   is not regular, and a file whose content is no longer `Expected`.
/// A reader sees the old content or the new one, never a mix (temporary file + rename).
llvm::Error replaceFileContent(llvm::StringRef Path, llvm::StringRef Expected, llvm::StringRef Content);

/// Writes a file the tool produces (--export-fixes): a regular file appears whole or not at all
/// (temporary file + rename; nothing is left behind on a full disk); a device or pipe
/// (/dev/stdout) is written directly. Write errors are returned, never left to abort.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Content);

/// The refusals of replaceFileContent that do not depend on content, checked for every file
/// before any is written.
llvm::Error checkFileReplaceable(llvm::StringRef Path);

} // namespace graphify::rewriter
