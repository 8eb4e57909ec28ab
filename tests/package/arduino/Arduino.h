// tests/package/arduino/Arduino.h: a stand-in for an Arduino core's Arduino.h, enough for sarnn's example sketch
// (packaging/arduino/examples): Serial (printing over semihosting), delay(), setup() and loop(). It counts the
// sketch's lines: ": ok" ones pass, ": error" ones fail (main.cpp prints the verdict).
#ifndef SARNN_TEST_ARDUINO_H
#define SARNN_TEST_ARDUINO_H

#include <cstdio>
#include <cstring>

class StandInSerial {
public:
    void begin(unsigned long /*baud*/) {}
    explicit operator bool() const { return true; }
    void print(const char* s) {
        std::fputs(s, stdout);
        if (std::strstr(s, ": ok") != nullptr) ++ok_lines;
        if (std::strstr(s, ": error") != nullptr) ++error_lines;
    }
    void print(long v) { std::printf("%ld", v); }
    void println(const char* s) {
        print(s);
        std::fputs("\n", stdout);
    }
    void println(long v) { std::printf("%ld\n", v); }
    int ok_lines = 0;
    int error_lines = 0;
};

extern StandInSerial Serial;

inline void delay(unsigned long /*ms*/) {}

void setup();
void loop();

#endif
