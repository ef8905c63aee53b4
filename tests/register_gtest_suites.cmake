# Writes OUTPUT_FILE: one ctest test per GoogleTest suite of TEST_EXECUTABLE, run with
# --gtest_filter=<suite>.* (tests/CMakeLists.txt runs this script after each link).
#
# One process per suite, not per test case: each process pays LibTorch's start-up (about
# 0.7 s on 2 cores), which over some 350 cases was about 260 s of the test suite's work.
#
# Inputs (-D): TEST_EXECUTABLE, OUTPUT_FILE, TEST_ENVIRONMENT (a ctest ENVIRONMENT value).
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE listing_errors
  RESULT_VARIABLE listing_status
  TIMEOUT 60)
if(NOT listing_status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${listing_status}): "
                      "${listing_errors}")
endif()

# --gtest_list_tests prints each suite at the start of a line, "Suite." or
# "Instantiation/Suite." (then "  # TypeParam = ..." for typed suites), and its cases
# indented below it.
string(REPLACE "\n" ";" lines "${listing}")
# A suite that passed no test and whose summary lists only skipped ones after that line
# ("[  PASSED  ] 0 tests." then "[  SKIPPED ] ..." lines to the end, no "[  FAILED  ]")
# had every test skipped (GTEST_SKIP, e.g. the CUDA tests without a GPU): ctest reports
# it as skipped. ctest's skip rule wins over the exit code, so a rule that matched only
# "0 tests passed" would report a suite whose every test failed as skipped too.
set(all_skipped [=[\[  PASSED  \] 0 tests\.([^[]|\[  SKIPPED \])*$]=])
set(registrations "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( |$)")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND registrations
           "add_test([=[${suite}]=] [=[${TEST_EXECUTABLE}]=] [=[--gtest_filter=${suite}.*]=])\n"
           "set_tests_properties([=[${suite}]=] PROPERTIES ENVIRONMENT [=[${TEST_ENVIRONMENT}]=]"
           " SKIP_REGULAR_EXPRESSION [=[${all_skipped}]=])\n")
  endif()
endforeach()
if(registrations STREQUAL "")
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests listed no test suite")
endif()

# Written, then renamed: ctest never reads half a file.
file(WRITE "${OUTPUT_FILE}.tmp" "${registrations}")
file(RENAME "${OUTPUT_FILE}.tmp" "${OUTPUT_FILE}")
