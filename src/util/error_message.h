#pragma once
/// The text of an exception for a user: LibTorch's c10::Error::what() appends a C++
/// backtrace (dozens of "frame #N" lines) to its message; users get the message alone.

#include <exception>
#include <string>

namespace bhpm::util {

/// error.what(), but c10::Error's message without its backtrace.
std::string error_message(const std::exception& error);

}  // namespace bhpm::util
