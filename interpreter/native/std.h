// The standard headers the runtime uses, included first by every game's library so that they can be read
// precompiled (build.py `_precompiled`: std.h.gch in the cache, built once; without it they are read as
// text, to the same code). Nothing here may depend on a game: the game's own #defines come after it.
#pragma once
#include <algorithm>
#include <bitset>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
