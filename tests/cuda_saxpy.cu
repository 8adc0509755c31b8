// A small unmodified CUDA program for the injection test (built with nvcc by
// the suite): a fill, a copy in, two kernel launches, a copy out. Exits 3
// when there is no GPU.
#include <cstdio>
#include <vector>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    const int n = 1 << 20;
    std::vector<float> host(n, 1.0f);
    float *x = nullptr, *y = nullptr;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
        std::puts("cuda_saxpy: no GPU");
        return 3;
    }
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(y, 0, n * sizeof(float));
    cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    for (int i = 0; i < 2; ++i)
        saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("cuda_saxpy: y[0] = %g\n", host[0]);
    return host[0] == 4.0f ? 0 : 1;
}
