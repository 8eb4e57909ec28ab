// sarnn.h: the header an Arduino sketch includes (#include <sarnn.h>). The Arduino builder finds a library by the
// headers at the top of its src/ folder, so this one is there; it gives the whole of sarnn (sarnn/sarnn.hpp), whose
// headers sit in src/sarnn/. scripts/package puts it into the Arduino library.
#ifndef SARNN_ARDUINO_H
#define SARNN_ARDUINO_H

#include "sarnn/sarnn.hpp"

#endif
