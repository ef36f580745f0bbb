// SPDX-License-Identifier: BSD-3-Clause
// Commit's choice phase: every direction of every slot (each part of a split message) gets its
// facts (SlotSide) and its candidates, the registered paths that offer to serve it, in this rank's
// order of preference. Both sides send their candidates in the commit descriptor and both reach the
// same path with agree_on_path. docs/internals/paths.md, "The life of a slot".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "halo/commit/slot_parts.hpp"
#include "halo/path.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

struct SideChoice {
  SlotSide side;
  // Registry indices, preferred first. A sender's end with the first path that needs no consent
  // from the receiver; a receiver's are the consent paths it accepts, then the first other path it
  // would take (what the sender's choice must be where the receiver prepares memory for it).
  std::vector<std::uint8_t> candidates;
  SlotMemory memory;  // the most any candidate needs (only one is taken)
  std::size_t segment_offset = 0, private_offset = 0;  // where commit/message_memory put it
};

struct SendChoice {
  SplitPieces split;               // parts' pieces when the message is split (split.runs not empty)
  std::vector<SideChoice> parts;   // one, or two for a split message
};

struct SlotChoices {
  std::vector<std::optional<SendChoice>> sends;     // by slot; empty: nothing sent on it
  std::vector<std::optional<SideChoice>> receives;  // by slot
};

// The path GHOSTWIRE_INTRA_PATH forces (null for auto); Errc::invalid_argument for a name no
// registered path has, or a path between nodes.
const PathType* forced_intra_path(const PlanState& p);
// Every slot's sides and candidates; p.path_states must be prepared.
void choose_sides(const PlanState& p, SlotChoices& choices);
// Each candidate's refusal of its side ("" if none), as problems for a collective verdict.
std::vector<std::string> refusals(const PlanState& p, const SlotChoices& choices);
// The path both ends of one direction take, from the sender's candidates and the receiver's, or
// null with `problem` saying why none.
const PathType* agree_on_path(std::span<const std::uint8_t> sender, std::span<const std::uint8_t> receiver,
                              std::string& problem);

}  // namespace ghostwire::detail
