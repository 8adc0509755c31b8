// The one translation unit that compiles stb's implementations.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO_DEFAULTS
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
