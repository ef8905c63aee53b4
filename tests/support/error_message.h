#pragma once
// The message of the exception a test expects, for matching its text.

#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace bhpm::testing_support {

/// The what() of the `Exception` that `action` throws; records a test failure and returns ""
/// when it throws nothing (another exception type propagates and fails the test).
template <typename Exception = std::invalid_argument, typename Action>
std::string error_message(Action action) {
  try {
    action();
  } catch (const Exception& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

}  // namespace bhpm::testing_support
