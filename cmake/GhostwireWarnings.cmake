# SPDX-License-Identifier: BSD-3-Clause
# Warnings for ghostwire's own targets (not for users of the installed package).
add_library(ghostwire_warnings INTERFACE)
target_compile_options(ghostwire_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
