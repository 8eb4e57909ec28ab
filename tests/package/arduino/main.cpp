// tests/package/arduino/main.cpp: what an Arduino core's main() does with a sketch (setup() once, then loop()), for
// 40 loops, with the stand-in Serial of Arduino.h here; then "N passed, N failed" over the sketch's lines.
#include "Arduino.h"

StandInSerial Serial;

int main() {
    setup();
    for (int i = 0; i < 40; ++i) loop();
    std::printf("%d passed, %d failed\n", Serial.ok_lines, Serial.error_lines);
    return Serial.error_lines == 0 && Serial.ok_lines == 40 ? 0 : 1;
}
