// SPDX-License-Identifier: BSD-3-Clause
// ghostwire: the whole C++ API.
#pragma once

#include "ghostwire/collective.hpp"
#include "ghostwire/dist.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/layout.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/settings.hpp"
#include "ghostwire/world.hpp"
