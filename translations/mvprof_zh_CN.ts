<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <location filename="../views/Export.cpp" line="48" />
        <location filename="../views/Export.cpp" line="58" />
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="50" />
        <location filename="../views/Export.cpp" line="61" />
        <source>Writing %1 failed: %2</source>
        <translation>写入 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="55" />
        <source>There is no image to export.</source>
        <translation>没有可导出的图像。</translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="60" />
        <source>Encoding %1 failed</source>
        <translation>编码 %1 失败</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="18" />
        <source>MoE-Visual Profiler</source>
        <translation>MoE 视觉性能剖析器</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="23" />
        <source>A session (.mvprof) or a trace (.json, .json.gz, .sqlite) to open</source>
        <translation>要打开的会话（.mvprof）或跟踪文件（.json、.json.gz、.sqlite）</translation>
    </message>
</context>
<context>
    <name>mvp::AttachDialog</name>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="20" />
        <source>Attach to a Running Capture</source>
        <translation>附加到正在进行的采集</translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="27" />
        <source>Attach</source>
        <translation>附加</translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="28" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="29" />
        <source>Remove Stale</source>
        <translation>移除失效项</translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="39" />
        <source>Captures running on this machine (mvprof-cli or any program using the capture library):</source>
        <translation>本机正在进行的采集（mvprof-cli 或任何使用采集库的程序）：</translation>
    </message>
</context>
<context>
    <name>mvp::CaptureDialog</name>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="51" />
        <location filename="../app/gui/CaptureDialog.cpp" line="360" />
        <location filename="../app/gui/CaptureDialog.cpp" line="364" />
        <source>New Capture</source>
        <translation>新建采集</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="53" />
        <source>Reference, tiny (seconds)</source>
        <translation>参考模型，tiny（数秒）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="54" />
        <source>Reference, small (up to a minute on CPU)</source>
        <translation>参考模型，small（CPU 上最多约一分钟）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="55" />
        <source>Reference, LLaVA-MoE 7B class (large GPU, or truncate depth)</source>
        <translation>参考模型，LLaVA-MoE 7B 级（需大显存 GPU，或截断层数）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="69" />
        <source>the model's manifest, e.g. example-vlm.json (see docs/user-models.md)</source>
        <translation>模型清单，例如 example-vlm.json（见 docs/user-models.md）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="71" />
        <source>all layers</source>
        <translation>全部层</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="72" />
        <source>Truncate the model to this many vision and decoder layers</source>
        <translation>将模型截断为此数量的视觉层与解码层</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="76" />
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="81" />
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="82" />
        <source>bfloat16 (half the weight and KV bytes)</source>
        <translation>bfloat16（权重与 KV 字节减半）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="97" />
        <source>The precision of weights, activations and the KV cache (float16 needs a GPU)</source>
        <translation>权重、激活与 KV 缓存的精度（float16 需要 GPU）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="98" />
        <source>e.g. all, 0-1 or 0,3 (empty: none)</source>
        <translation>例如 all、0-1 或 0,3（留空：不保存）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="99" />
        <source>Decoder layers whose per-head attention maps are stored (for head redundancy and saliency)</source>
        <translation>保存逐头注意力图的解码层（用于注意力头冗余度与显著性）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="105" />
        <source>Expert popularity ∝ (rank + 1)^−skew; 0 leaves routing to the router alone</source>
        <translation>专家热度 ∝ (排名 + 1)^−偏斜；0 表示完全由路由器决定</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="106" />
        <source>Describe the image.</source>
        <translation>描述这张图片。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="112" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="139" />
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="140" />
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="113" />
        <location filename="../app/gui/CaptureDialog.cpp" line="120" />
        <location filename="../app/gui/CaptureDialog.cpp" line="126" />
        <location filename="../app/gui/CaptureDialog.cpp" line="133" />
        <location filename="../app/gui/CaptureDialog.cpp" line="140" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="48" />
        <source>Read the GPU's hardware counters (replays the run)</source>
        <translation>读取 GPU 硬件计数器（会重放此次运行）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="57" />
        <source>User model (TorchScript + manifest)…</source>
        <translation>用户模型（TorchScript + 清单）…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="58" />
        <source>Python script (profiles its model with the mvprof package)…</source>
        <translation>Python 脚本（用 mvprof 包剖析其模型）…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="60" />
        <source>Any CUDA program (its kernels and copies, through CUPTI)…</source>
        <translation>任意 CUDA 程序（通过 CUPTI 记录其内核与拷贝）…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="62" />
        <source>an unmodified program that uses CUDA; each of its CUDA processes becomes a run</source>
        <translation>使用 CUDA 的未经修改的程序；它的每个 CUDA 进程成为一次运行</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="64" />
        <source>a script calling mvprof.profile(None, model, …), e.g. llava_moe.py</source>
        <translation>调用 mvprof.profile(None, model, …) 的脚本，例如 llava_moe.py</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="66" />
        <source>its arguments, e.g. --steps 8 --image photo.jpg</source>
        <translation>脚本参数，例如 --steps 8 --image photo.jpg</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="67" />
        <source>empty: the script's folder</source>
        <translation>留空：脚本所在文件夹</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="79" />
        <source>Looking for CUDA devices…</source>
        <translation>正在查找 CUDA 设备…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="83" />
        <source>float16 (a GPU's)</source>
        <translation>float16（GPU 专用）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="85" />
        <source>CUDA events around module spans</source>
        <translation>在模块区间前后记录 CUDA 事件</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="86" />
        <source>Exact: wait for the GPU at every probe (slower)</source>
        <translation>精确：每个探针处等待 GPU（较慢）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="88" />
        <source>Off: host launch times only</source>
        <translation>关闭：仅主机端发射时间</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="91" />
        <source>After the run, replay it under CUPTI's range profiler for each module's DRAM bytes, FLOPs and kernel time; the roofline then plots those instead of estimates</source>
        <translation>运行结束后，在 CUPTI 区间分析器下重放，测得每个模块的 DRAM 字节数、FLOPs 与内核耗时；屋顶线随后以这些实测值代替估算值</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="94" />
        <source>How a GPU capture times its modules on the device; exact mode makes every op and module time include its GPU work, at the cost of a wait at each</source>
        <translation>GPU 采集如何在设备上为模块计时；精确模式让每个算子与模块的时间都包含其 GPU 工作，代价是每处都要等待</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="115" />
        <source>Choose a Model Manifest</source>
        <translation>选择模型清单</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="116" />
        <source>Model manifests (*.json)</source>
        <translation>模型清单 (*.json)</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="119" />
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="121" />
        <source>Choose a Python Script</source>
        <translation>选择 Python 脚本</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="122" />
        <source>Python (*.py)</source>
        <translation>Python (*.py)</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="125" />
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="128" />
        <source>Choose a CUDA Program</source>
        <translation>选择 CUDA 程序</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="131" />
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="132" />
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="135" />
        <source>Working Folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="138" />
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="142" />
        <source>Choose an Image</source>
        <translation>选择图像</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="143" />
        <source>Images (*.png *.jpg *.jpeg *.bmp)</source>
        <translation>图像 (*.png *.jpg *.jpeg *.bmp)</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="147" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="148" />
        <source>Decode steps</source>
        <translation>解码步数</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="149" />
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="150" />
        <source>Device timing</source>
        <translation>设备计时</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="152" />
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="153" />
        <source>Attention maps</source>
        <translation>注意力图</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="154" />
        <source>Routing skew</source>
        <translation>路由偏斜</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="155" />
        <source>Session file</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="155" />
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="157" />
        <source>Session File</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="158" />
        <source>mvprof sessions (*.mvprof)</source>
        <translation>mvprof 会话 (*.mvprof)</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="165" />
        <source>Capture</source>
        <translation>采集</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="192" />
        <source>Could not ask %1 for devices: %2</source>
        <translation>无法向 %1 查询设备：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="206" />
        <source>%1 did not list devices: only the CPU is offered</source>
        <translation>%1 未列出设备：仅提供 CPU</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="214" />
        <source>%1: %2 (%3 GiB)</source>
        <translation>%1：%2（%3 GiB）</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="223" />
        <source>No CUDA device: %1</source>
        <translation>没有 CUDA 设备：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="330" />
        <source>No image</source>
        <translation>无图像</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="330" />
        <source>Cannot read this image</source>
        <translation>无法读取此图像</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="334" />
        <source>%1 × %2 px</source>
        <translation>%1 × %2 像素</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="346" />
        <source>Choose the user model's manifest (a .json file next to its TorchScript archive).</source>
        <translation>请选择用户模型的清单（与其 TorchScript 归档放在一起的 .json 文件）。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="348" />
        <source>Choose the CUDA program to run (an executable file).</source>
        <translation>请选择要运行的 CUDA 程序（可执行文件）。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="350" />
        <source>Choose the Python script to run.</source>
        <translation>请选择要运行的 Python 脚本。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="352" />
        <source>The working folder does not exist.</source>
        <translation>工作文件夹不存在。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="354" />
        <source>Choose an image file that exists.</source>
        <translation>请选择一个存在的图像文件。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="356" />
        <source>Choose where to write the session.</source>
        <translation>请选择会话的保存位置。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="358" />
        <source>The session's folder is not writable.</source>
        <translation>会话所在文件夹不可写。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="365" />
        <source>%1 exists. Replace it?</source>
        <translation>%1 已存在。要替换它吗？</translation>
    </message>
</context>
<context>
    <name>mvp::CaptureRunner</name>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="65" />
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="74" />
        <source>The mvprof-cli process crashed; the session keeps what it wrote.</source>
        <translation>mvprof-cli 进程崩溃；会话保留了已写入的内容。</translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="75" />
        <source>The mvprof-cli process exited with status %1.</source>
        <translation>mvprof-cli 进程以状态 %1 退出。</translation>
    </message>
</context>
<context>
    <name>mvp::CompareMethodsDialog</name>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="36" />
        <source>Compare Methods</source>
        <translation>比较方法</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="37" />
        <source>Visual-token methods (budget: image tokens)</source>
        <translation>视觉词元方法（预算：图像词元数）</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="38" />
        <source>KV-cache methods (budget: fraction of the prompt kept)</source>
        <translation>KV 缓存方法（预算：保留的提示比例）</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="40" />
        <source>Each method runs at each budget against the baseline, as a what-if of its own, stored in the session.</source>
        <translation>每种方法在每个预算下对照基线各运行一次假设分析，结果存入会话。</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="43" />
        <source>Family:</source>
        <translation>类别：</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="50" />
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="56" />
        <source>Comma-separated; empty: 192, 128, 64 of 576 image tokens (scaled to the model), or 0.4, 0.2, 0.1 of the KV cache</source>
        <translation>用逗号分隔；留空：576 个图像词元中的 192、128、64（按模型缩放），或 KV 缓存的 0.4、0.2、0.1</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="58" />
        <source>Budgets:</source>
        <translation>预算：</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="61" />
        <source>A/B repetitions per point:</source>
        <translation>每个点的 A/B 重复次数：</translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="63" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>mvp::CompareMethodsWindow</name>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="96" />
        <source>Compare Methods</source>
        <translation>比较方法</translation>
    </message>
</context>
<context>
    <name>mvp::MainWindow</name>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="109" />
        <source>mvprof — MoE-Visual Profiler</source>
        <translation>mvprof — MoE 视觉性能剖析器</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="28" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="29" />
        <source>&amp;New Capture…</source>
        <translation>新建采集(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="31" />
        <source>&amp;Attach…</source>
        <translation>附加(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="32" />
        <source>&amp;Open Session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="34" />
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="35" />
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="37" />
        <source>Heatmap Overlay as PNG…</source>
        <translation>热力图叠加导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="38" />
        <source>Heatmap with Colour Bar as PNG…</source>
        <translation>热力图及色标导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="39" />
        <source>Heatmap Grid as CSV…</source>
        <translation>热力图网格导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="40" />
        <source>Module Table as CSV…</source>
        <translation>模块表导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="41" />
        <source>Findings as CSV…</source>
        <translation>诊断导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="42" />
        <source>Report as Markdown…</source>
        <translation>报告导出为 Markdown…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="43" />
        <source>Expert Load Plot as PNG…</source>
        <translation>专家负载图导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="44" />
        <source>Expert Load Plot as PDF…</source>
        <translation>专家负载图导出为 PDF…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="45" />
        <source>Timeline as PNG…</source>
        <translation>时间线导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="46" />
        <source>Timeline as PDF…</source>
        <translation>时间线导出为 PDF…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="50" />
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="144" />
        <source>&amp;What-if</source>
        <translation>假设分析(&amp;W)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="145" />
        <source>What-if</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="160" />
        <source>Expert &amp;Placement (EPLB)…</source>
        <translation>专家放置(&amp;P)（EPLB）…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="180" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="182" />
        <source>Run: </source>
        <translation>运行：</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="186" />
        <source>The run the views show</source>
        <translation>各视图显示的运行</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="215" />
        <source>Back to run %1</source>
        <translation>返回运行 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="218" />
        <source>Now showing run %1, the what-if's result; "Back to run %2" in the toolbar returns</source>
        <translation>现在显示运行 %1（what-if 的结果）；工具栏中的“返回运行 %2”可返回</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="56" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="57" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="59" />
        <location filename="../app/gui/MainWindowMenus.cpp" line="74" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="65" />
        <source>The language changes when mvprof starts again</source>
        <translation>语言将在 mvprof 重新启动后生效</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="70" />
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="74" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="74" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="227" />
        <source>Module cost tree</source>
        <translation>模块开销树</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="229" />
        <source>Expert load</source>
        <translation>专家负载</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="233" />
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="235" />
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="238" />
        <source>Findings</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="241" />
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="242" />
        <source>Gate vs expert timeline</source>
        <translation>门控与专家时间线</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="245" />
        <source>Flame chart</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="249" />
        <source>What-if comparison</source>
        <translation>假设分析对比</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="401" />
        <source>Sessions and traces (*.mvprof *.json *.json.gz *.sqlite);;mvprof sessions (*.mvprof);;torch.profiler traces (*.json *.json.gz);;Nsight Systems SQLite exports (*.sqlite);;All files (*)</source>
        <translation>会话与跟踪文件 (*.mvprof *.json *.json.gz *.sqlite);;mvprof 会话 (*.mvprof);;torch.profiler 跟踪 (*.json *.json.gz);;Nsight Systems SQLite 导出 (*.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="112" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="114" />
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="119" />
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="120" />
        <source>The documentation is in the docs/ folder of mvprof's sources: README.md first, then docs/gui.md for this window.</source>
        <translation>文档位于 mvprof 源代码的 docs/ 文件夹中：先读 README.md，本窗口的说明见 docs/gui.md。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="123" />
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="125" />
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="126" />
        <source>Ctrl+N  New Capture
Ctrl+O  Open a session or trace
Ctrl+Q  Quit
Timeline and flame chart: + and − zoom, Home shows the whole run, the wheel zooms, drag pans
Flame chart search: Enter finds the next match
Compare Methods: Escape closes it</source>
        <translation>Ctrl+N  新建采集
Ctrl+O  打开会话或跟踪文件
Ctrl+Q  退出
时间线和火焰图：+ 和 − 缩放，Home 显示整个运行，滚轮缩放，拖动平移
火焰图搜索：Enter 查找下一个匹配
方法比较：Escape 关闭</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="132" />
        <source>&amp;About mvprof</source>
        <translation>关于 mvprof(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="133" />
        <source>About mvprof</source>
        <translation>关于 mvprof</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="134" />
        <source>&lt;b&gt;mvprof %1&lt;/b&gt; — the MoE-Visual Profiler: where every millisecond, byte and FLOP of one image and prompt goes in a vision-language model, and what a what-if changes.</source>
        <translation>&lt;b&gt;mvprof %1&lt;/b&gt; —— MoE 视觉性能分析器：一张图像和一个提示词在视觉语言模型中的每一毫秒、每一字节和每一次浮点运算花在哪里，以及 what-if 会改变什么。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="30" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="46" />
        <source> · ~%1 s left</source>
        <translation> · 约剩 %1 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="51" />
        <source>decode %1</source>
        <translation>解码 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="53" />
        <source>decode %1/%2 · %p%</source>
        <translation>解码 %1/%2 · %p%</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="55" />
        <source>A/B pass %1/%2 · %p%</source>
        <translation>A/B 第 %1/%2 轮 · %p%</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="56" />
        <source>%1 · %p%</source>
        <translation>%1 · %p%</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="81" />
        <source>The capture failed</source>
        <translation>采集失败</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="81" />
        <source>The what-if failed</source>
        <translation>假设分析失败</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="92" />
        <source>What-if complete: see the comparison</source>
        <translation>假设分析完成：请查看对比</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="93" />
        <source>What-if cancelled: the run is kept, marked incomplete</source>
        <translation>假设分析已取消：该运行已保留并标记为未完成</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="94" />
        <source>What-if failed: %1</source>
        <translation>假设分析失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="100" />
        <source>Capture complete</source>
        <translation>采集完成</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="101" />
        <source>Capture cancelled: the run is kept, marked incomplete</source>
        <translation>采集已取消：运行已保留并标记为未完成</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="102" />
        <source>Capture failed: %1</source>
        <translation>采集失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="221" />
        <source>Comparing %1 against run %2…</source>
        <translation>正在对照运行 %2 比较 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="135" />
        <source>No session</source>
        <translation>无会话</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="400" />
        <source>Open Session or Trace</source>
        <translation>打开会话或跟踪</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="458" />
        <location filename="../app/gui/MainWindow.cpp" line="460" />
        <source>Could not open the session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="110" />
        <location filename="../app/gui/MainWindowJobs.cpp" line="118" />
        <source>A capture is already running</source>
        <translation>已有采集正在运行</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="132" />
        <source>Describe the image.</source>
        <translation>描述这张图片。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="183" />
        <source>Running %1 with the mvprof package…</source>
        <translation>正在用 mvprof 包运行 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="189" />
        <source>Capturing %1 on %2…</source>
        <translation>正在用 %2 采集 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="195" />
        <source>Open a session with a baseline run first</source>
        <translation>请先打开包含基线运行的会话</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="199" />
        <source>Wait for the running job to finish, or cancel it</source>
        <translation>请等待正在运行的任务结束，或将其取消</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="212" />
        <source>Running what-if %1 against run %2…</source>
        <translation>正在以运行 %2 为基线执行假设分析 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="67" />
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="448" />
        <source>Opening %1 failed unexpectedly (%2). The file may be damaged; please report this with the file.</source>
        <translation>打开 %1 时意外失败（%2）。文件可能已损坏；请附上该文件报告此问题。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="504" />
        <source>%1 · %2 · run %3 (%4) · %5 ms wall (measured)</source>
        <translation>%1 · %2 · 运行 %3（%4）· 墙钟 %5 毫秒（实测）</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="509" />
        <source>%1 — mvprof</source>
        <translation>%1 — mvprof</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="511" />
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="24" />
        <source>Open a session first.</source>
        <translation>请先打开一个会话。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="32" />
        <source>This run has no heatmap values.</source>
        <translation>此运行没有热力图数值。</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="48" />
        <location filename="../app/gui/MainWindowExport.cpp" line="53" />
        <source>Writing %1 failed</source>
        <translation>写入 %1 失败</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="56" />
        <source>Unknown export</source>
        <translation>未知的导出类型</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="61" />
        <source>Open a session first</source>
        <translation>请先打开一个会话</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="68" />
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="69" />
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="70" />
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="71" />
        <source>CSV tables (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="81" />
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="88" />
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="90" />
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>mvp::WelcomePage</name>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="13" />
        <source>&lt;h2&gt;mvprof — MoE-Visual Profiler&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;mvprof —— MoE 视觉性能分析器&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="15" />
        <source>Where every millisecond, byte and FLOP of one image and prompt goes in a vision-language model: a heatmap over the image's patches, the module cost tree, expert load, the gate-vs-expert timeline, a flame chart and the roofline — and what-ifs (token pruning, quantisation, KV-cache compression, frozen experts) run side by side with error bars.</source>
        <translation>一张图像和一个提示词在视觉语言模型中的每一毫秒、每一字节和每一次浮点运算花在哪里：图像块热力图、模块开销树、专家负载、门控与专家时间线、火焰图和屋顶线——以及并排运行、带误差线的 what-if（词元剪枝、量化、KV 缓存压缩、冻结专家）。</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="27" />
        <source>New Capture…</source>
        <translation>新建采集…</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="28" />
        <source>Capture the Demo Scene…</source>
        <translation>采集演示场景…</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="29" />
        <source>The trained built-in model (ref:demo) asked about a bundled scene, as ./run.sh does</source>
        <translation>用训练好的内置模型（ref:demo）回答关于自带场景的问题，与 ./run.sh 相同</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="31" />
        <source>Open a Session or Trace…</source>
        <translation>打开会话或跟踪文件…</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="32" />
        <source>An mvprof session, a torch.profiler trace (.json, .json.gz) or an Nsight Systems SQLite export</source>
        <translation>mvprof 会话、torch.profiler 跟踪文件（.json、.json.gz）或 Nsight Systems SQLite 导出文件</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="41" />
        <source>Recent sessions:</source>
        <translation>最近的会话：</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="55" />
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="60" />
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfActions</name>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="239" />
        <source>W4 + KV INT4 + Prune 0.4 (the design note's setup)</source>
        <translation>W4 + KV INT4 + 剪枝 0.4（设计说明中的配置）</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="240" />
        <source>W4+KV+Prune</source>
        <translation>W4+KV+剪枝</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="220" />
        <source>Run again with: %1</source>
        <translation>以此重新运行：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="242" />
        <source>&amp;Custom What-if…</source>
        <translation>自定义假设分析(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="250" />
        <source>Compare &amp;Methods…</source>
        <translation>比较方法(&amp;M)…</translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfDialog</name>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="114" />
        <source>Custom What-if</source>
        <translation>自定义假设分析</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="119" />
        <source>by the attention the patches received</source>
        <translation>按图块获得的注意力排序</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="121" />
        <source>by the saliency map (needs attention maps)</source>
        <translation>按显著性图排序（需要注意力图）</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="123" />
        <source>by the visual features' norm</source>
        <translation>按视觉特征的范数排序</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="71" />
        <source>No weight quantisation</source>
        <translation>不量化权重</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="67" />
        <source>No visual tokens dropped inside the decoder</source>
        <translation>不在解码器内丢弃视觉 token</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="69" />
        <source>The encoder sends every visual token</source>
        <translation>编码器发送全部视觉词元</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="73" />
        <source>No published KV-cache method</source>
        <translation>不使用已发表的 KV 缓存方法</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="94" />
        <source>The fraction of the prompt's positions each KV head keeps</source>
        <translation>每个 KV 头保留的提示位置比例</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="137" />
        <source>Both setups re-run this many times each, interleaved, so the speed-up comes with an interval; 0 compares one run of each</source>
        <translation>两种配置各重跑此次数、交替进行，加速比因此带有置信区间；0 表示各比较一次运行</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="117" />
        <source>The transforms apply together in one real run of the baseline's inputs.</source>
        <translation>所选变换将在基线输入的一次真实运行中同时生效。</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="139" />
        <source>A/B repetitions:</source>
        <translation>A/B 重复次数：</translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="141" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfMethods</name>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34" />
        <source>Saliency pruning</source>
        <translation>显著性剪枝</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34" />
        <source>Prune Visual Tokens (keep 40 %)</source>
        <translation>剪枝视觉令牌（保留 40%）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34" />
        <source>Prune 0.4</source>
        <translation>剪枝 0.4</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="35" />
        <source>Prune visual tokens, keep</source>
        <translation>剪枝视觉令牌，保留比例</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="35" />
        <source>prune %1</source>
        <translation>剪枝 %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="40" />
        <source>FastV</source>
        <translation>FastV</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="40" />
        <source>FastV: Drop Half the Image Tokens from Layer 2</source>
        <translation>FastV：自第 2 层起丢弃一半图像 token</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="41" />
        <source>FastV (from layer 2, drop the fraction least attended)</source>
        <translation>FastV（自第 2 层起，丢弃该比例中最少被关注的 token）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="41" />
        <source>FastV R %1</source>
        <translation>FastV R %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="46" />
        <location filename="../core/whatif/Methods.cpp" line="47" />
        <source>PyramidDrop</source>
        <translation>PyramidDrop</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="46" />
        <source>PyramidDrop: Halve the Image Tokens at Each Stage</source>
        <translation>PyramidDrop：每个阶段将图像 token 减半</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="48" />
        <source>PyramidDrop (at L/4, L/2, 3L/4, keep the fraction most attended)</source>
        <translation>PyramidDrop（在 L/4、L/2、3L/4 层，保留该比例中最受关注的 token）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="49" />
        <source>PyramidDrop λ %1</source>
        <translation>PyramidDrop λ %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="55" />
        <source>DART</source>
        <translation>DART</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="55" />
        <source>DART: Keep 132 Image Tokens Unlike Its Pivots</source>
        <translation>DART：保留与其枢轴最不相似的 132 个图像词元</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="56" />
        <source>DART (after layer 2, keep 4 + 8·⌊N/8⌋ tokens least like 8 pivots), N</source>
        <translation>DART（第 2 层后，保留与 8 个枢轴最不相似的 4 + 8·⌊N/8⌋ 个词元），N</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="57" />
        <source>DART %1</source>
        <translation>DART %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63" />
        <source>VisionZip</source>
        <translation>VisionZip</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63" />
        <source>VisionZip: Send 64 Visual Tokens</source>
        <translation>VisionZip：只送出 64 个视觉词元</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63" />
        <source>VisionZip 64</source>
        <translation>VisionZip 64</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="64" />
        <source>VisionZip (most attended + contextual merges), tokens sent</source>
        <translation>VisionZip（最受关注的 + 上下文合并），发送词元数</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="65" />
        <source>VisionZip %1</source>
        <translation>VisionZip %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="71" />
        <source>ToMe</source>
        <translation>ToMe</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="71" />
        <source>ToMe: Merge 8 Tokens in Every Vision Block</source>
        <translation>ToMe：在每个视觉块中合并 8 个词元</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="72" />
        <source>ToMe (merge in every vision block), tokens merged per block</source>
        <translation>ToMe（在每个视觉块中合并），每块合并词元数</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="73" />
        <source>ToMe r %1</source>
        <translation>ToMe r %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="78" />
        <source>Downsampled image</source>
        <translation>下采样图像</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="78" />
        <source>Downsample the Image to 64 Visual Tokens</source>
        <translation>将图像下采样到 64 个视觉词元</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="79" />
        <source>Downsample</source>
        <translation>下采样</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="79" />
        <source>Downsample baseline (the image resized), tokens</source>
        <translation>下采样基线（缩放图像），词元数</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="80" />
        <source>downsample to %1</source>
        <translation>下采样至 %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="85" />
        <source>Vision MLP channel pruning</source>
        <translation>视觉 MLP 通道剪枝</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="85" />
        <source>Prune Vision MLP Channels (30 %)</source>
        <translation>剪枝视觉 MLP 通道（30%）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="86" />
        <source>Channels 0.3</source>
        <translation>通道 0.3</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="86" />
        <source>Prune vision MLP channels, fraction</source>
        <translation>剪枝视觉 MLP 通道，比例</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="87" />
        <source>prune channels %1</source>
        <translation>剪枝通道 %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="98" />
        <location filename="../core/whatif/Methods.cpp" line="99" />
        <source>W8</source>
        <translation>W8</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="98" />
        <source>Quantise Weights to W8 (AWQ)</source>
        <translation>权重量化为 W8（AWQ）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="99" />
        <source>W8, AWQ, int8 kernels where libtorch has them</source>
        <translation>W8，AWQ，libtorch 提供 int8 内核时使用</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="92" />
        <location filename="../core/whatif/Methods.cpp" line="93" />
        <source>W4</source>
        <translation>W4</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="92" />
        <source>Quantise Weights to W4 (AWQ)</source>
        <translation>权重量化为 W4（AWQ）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="93" />
        <source>W4, group 128, AWQ</source>
        <translation>W4，分组 128，AWQ</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104" />
        <source>KV merge + INT4</source>
        <translation>KV 合并 + INT4</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104" />
        <source>Compress the KV Cache (merge + INT4)</source>
        <translation>压缩 KV 缓存（合并 + INT4）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104" />
        <location filename="../core/whatif/Methods.cpp" line="105" />
        <source>KV INT4</source>
        <translation>KV INT4</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="105" />
        <source>Compress the KV cache (merge similar visual keys, INT4)</source>
        <translation>压缩 KV 缓存（合并相似的视觉键，INT4）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="109" />
        <location filename="../core/whatif/Methods.cpp" line="110" />
        <source>StreamingLLM</source>
        <translation>StreamingLLM</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="109" />
        <source>StreamingLLM: Keep 40 % of the KV Cache (sinks + recent)</source>
        <translation>StreamingLLM：保留 40 % 的 KV 缓存（注意力汇点 + 最近词元）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="110" />
        <source>StreamingLLM (4 attention sinks + the most recent), keep</source>
        <translation>StreamingLLM（4 个注意力汇点 + 最近词元），保留</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="111" />
        <source>StreamingLLM KV %1</source>
        <translation>StreamingLLM KV %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="115" />
        <source>H2O</source>
        <translation>H2O</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="115" />
        <source>H2O: Keep 40 % of the KV Cache (heavy hitters + recent)</source>
        <translation>H2O：保留 40 % 的 KV 缓存（重要词元 + 最近词元）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="116" />
        <source>H2O 0.4</source>
        <translation>H2O 0.4</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="116" />
        <source>H2O (heavy hitters + the most recent, every step), keep</source>
        <translation>H2O（重要词元 + 最近词元，每步淘汰），保留</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="117" />
        <source>H2O KV %1</source>
        <translation>H2O KV %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="121" />
        <location filename="../core/whatif/Methods.cpp" line="122" />
        <source>SnapKV</source>
        <translation>SnapKV</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="121" />
        <source>SnapKV: Keep 40 % of the KV Cache (the prompt's votes)</source>
        <translation>SnapKV：保留 40 % 的 KV 缓存（按提示的投票）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="122" />
        <source>SnapKV (the prompt's last 32 queries vote, once), keep</source>
        <translation>SnapKV（提示的最后 32 个查询投票，一次），保留</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="123" />
        <source>SnapKV KV %1</source>
        <translation>SnapKV KV %1</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="127" />
        <source>KIVI</source>
        <translation>KIVI</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="127" />
        <source>KIVI: Hold the KV Cache in 2 Bits</source>
        <translation>KIVI：以 2 位存放 KV 缓存</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="128" />
        <source>KIVI (2-bit keys per channel, values per token)</source>
        <translation>KIVI（2 位，键按通道、值按词元量化）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="128" />
        <source>KIVI 2-bit</source>
        <translation>KIVI 2 位</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133" />
        <source>Cold-expert freezing</source>
        <translation>冷专家冻结</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133" />
        <source>Freeze Cold Experts</source>
        <translation>冻结冷专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133" />
        <source>Freeze</source>
        <translation>冻结</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="134" />
        <source>Freeze cold experts (&lt; 3 activations in two windows of 128 tokens)</source>
        <translation>冻结冷专家（连续两个 128 令牌窗口内激活少于 3 次）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="135" />
        <source>freeze cold experts</source>
        <translation>冻结冷专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="141" />
        <source>Expert skipping</source>
        <translation>专家跳过</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="141" />
        <source>Skip Weak Second Experts (β = the median w₂/w₁)</source>
        <translation>跳过权重偏弱的第二专家（β = w₂/w₁ 的中位数）</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="142" />
        <source>Skip Experts</source>
        <translation>跳过专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="143" />
        <source>Skip a token's lower-ranked expert below β × the top-1's weight</source>
        <translation>当 token 的低位专家权重低于 β × 首位专家权重时跳过它</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="144" />
        <source>skip experts</source>
        <translation>跳过专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="150" />
        <source>Expert pruning</source>
        <translation>专家剪枝</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="150" />
        <source>Prune Experts, Keep 6 per MoE Layer</source>
        <translation>剪枝专家，每个 MoE 层保留 6 个</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="151" />
        <source>Keep Experts</source>
        <translation>保留专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="151" />
        <source>Prune experts, keep per MoE layer</source>
        <translation>剪枝专家，每个 MoE 层保留</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="152" />
        <source>keep %1 experts</source>
        <translation>保留 %1 个专家</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="238" />
        <source>tokens sent</source>
        <translation>送出的词元数</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="240" />
        <source>layer-averaged</source>
        <translation>按层平均</translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="242" />
        <source>kept after its cut</source>
        <translation>剪枝后保留的词元数</translation>
    </message>
</context>
<context>
    <name>mvp::views::AbChart</name>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="127" />
        <source>No A/B repetitions for this pair: one stored run each, no interval. Run the what-if again (it repeats both setups by default).</source>
        <translation>这一对运行没有 A/B 重复：各只有一次已存运行，无置信区间。请重新运行该假设分析（默认会重复两种配置）。</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="143" />
        <source>A (blue) and B (orange): median ms with its interval as an error bar (measured); each phase on its own scale</source>
        <translation>A（蓝）与 B（橙）：中位数 ms，区间以误差线表示（实测）；各阶段使用各自的刻度</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="150" />
        <source>%1× %2</source>
        <translation>%1× %2</translation>
    </message>
</context>
<context>
    <name>mvp::views::AbTimingsModel</name>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="12" />
        <source>%1 [%2, %3]</source>
        <translation>%1 [%2, %3]</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="19" />
        <source>within noise</source>
        <translation>在噪声范围内</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="20" />
        <source>faster</source>
        <translation>更快</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="21" />
        <source>slower</source>
        <translation>更慢</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="23" />
        <source> · noise control</source>
        <translation> · 噪声对照</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="24" />
        <source> · noise control: machine unsteady</source>
        <translation> · 噪声对照：机器不稳定</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="59" />
        <source>%1× [%2, %3]</source>
        <translation>%1× [%2, %3]</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="82" />
        <source>%1 repetitions each; the interval is a pair of order statistics covering the median with %2 % confidence</source>
        <translation>各 %1 次重复；区间由一对顺序统计量构成，以 %2 % 的置信度覆盖中位数</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="93" />
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="95" />
        <source>A ms, median [interval] (measured)</source>
        <translation>A ms，中位数 [区间]（实测）</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="97" />
        <source>B ms, median [interval] (measured)</source>
        <translation>B ms，中位数 [区间]（实测）</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="99" />
        <source>Speed-up A/B (derived, paired)</source>
        <translation>加速比 A/B（推导，配对）</translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="101" />
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
</context>
<context>
    <name>mvp::views::ComparisonModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="15" />
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="24" />
        <source>Measured: the median of the interleaved A/B repetitions without probes (%1 pairs), with its 95 % interval; the summary's speed-up comes from the same repetitions. QPS derived: 1 / latency.</source>
        <translation>实测：交错的无探针 A/B 重复（%1 对）的中位数及其 95 % 区间；摘要中的加速比来自同一组重复。QPS 为推导值：1 / 延迟。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="30" />
        <source>Measured: the median wall time per item over the items (%1), with its 95 % interval. QPS derived: 1 / latency.</source>
        <translation>实测：各条目（%1 个）每条目墙钟时间的中位数及其 95 % 区间。QPS 为推导值：1 / 延迟。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="34" />
        <source>Measured: one run each, with the probes on, so no interval; run the what-if with repetitions (--reps) to compare latency. QPS derived: 1 / latency.</source>
        <translation>实测：各运行一次且开启探针，因此没有区间；要比较延迟，请带重复次数（--reps）运行 what-if。QPS 为推导值：1 / 延迟。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="123" />
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="154" />
        <source>%1 (%2 vs measured)</source>
        <translation>%1（相对实测 %2）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="202" />
        <source>Derived: the run's weights plus the most its tensors grew by during the run (libtorch's CUDA caching allocator, measured)</source>
        <translation>推导值：该运行的权重加上运行期间其张量增长的最大量（libtorch 的 CUDA 缓存分配器，实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="204" />
        <source>Not a GPU run</source>
        <translation>不是 GPU 运行</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="208" />
        <source>Predicted: an int4/int8 kernel reading the packed weights, from the roofline of bytes moved</source>
        <translation>预测值：假设 int4/int8 内核直接读取打包权重，按搬运字节数的屋顶线模型推算</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="212" />
        <source>Measured: the capture with its probes on, one run — what it cost to record, not for comparison</source>
        <translation>实测：开启探针的一次采集——这是记录的代价，不用于比较</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="214" />
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="240" />
        <source>Setup</source>
        <translation>配置</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="244" />
        <source>Latency ms (A/B median, measured)</source>
        <translation>延迟 ms（A/B 中位数，实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="246" />
        <source>Latency ms per item (median, measured)</source>
        <translation>每条目延迟 ms（中位数，实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="248" />
        <source>Latency ms (one probed run, measured)</source>
        <translation>延迟 ms（一次带探针运行，实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="252" />
        <source>Probed run ms (not for comparison)</source>
        <translation>带探针运行 ms（不用于比较）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="254" />
        <source>Peak RSS MiB (measured)</source>
        <translation>峰值 RSS MiB（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="256" />
        <source>Peak GPU MiB (derived)</source>
        <translation>GPU 峰值 MiB（推导值）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="258" />
        <source>QPS (derived, 1/latency)</source>
        <translation>QPS（推导值，1/延迟）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="260" />
        <source>J/inference (measured)</source>
        <translation>焦耳/次推理（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="262" />
        <source>Weights MiB (measured)</source>
        <translation>权重 MiB（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="264" />
        <source>KV cache MiB (measured)</source>
        <translation>KV 缓存 MiB（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="266" />
        <source>Visual tokens</source>
        <translation>视觉词元</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="268" />
        <source>KL mean (measured)</source>
        <translation>KL 均值（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="270" />
        <source>Top-1 agreement</source>
        <translation>Top-1 一致率</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="272" />
        <source>Token match</source>
        <translation>令牌匹配率</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="274" />
        <source>Vision cosine</source>
        <translation>视觉特征余弦</translation>
    </message>
</context>
<context>
    <name>mvp::views::ComparisonView</name>
    <message>
        <location filename="../views/ComparisonView.cpp" line="112" />
        <source>A:</source>
        <translation>A：</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="114" />
        <source>B:</source>
        <translation>B：</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="118" />
        <source>Run a what-if (What-if menu) or choose two runs to compare.</source>
        <translation>运行一次假设分析（“假设分析”菜单），或选择两个运行进行对比。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="134" />
        <source>What B's transforms did:</source>
        <translation>B 的变换做了什么：</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="137" />
        <source>Show the profiler's own figures (capture.*)</source>
        <translation>显示分析器自身的数据（capture.*）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="151" />
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="156" />
        <source>Filter modules…</source>
        <translation>筛选模块…</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="166" />
        <source>Module diff</source>
        <translation>模块差异</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="176" />
        <source>Heatmaps A | B</source>
        <translation>热力图 A | B</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="177" />
        <source>A/B repetitions</source>
        <translation>A/B 重复</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="204" />
        <source>Changed answers only</source>
        <translation>仅显示答案改变的条目</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="230" />
        <source>One colour scale for A and B</source>
        <translation>A 和 B 共用一个色标</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="232" />
        <source>Colour both sides over the values of both, so that a colour means the same value on each (while they show the same metric)</source>
        <translation>按两侧全部数值为两侧着色，使同一颜色在两侧代表同一数值（两侧显示同一指标时）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="262" />
        <source>Could not compare: %1</source>
        <translation>无法对比：%1</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="310" />
        <source>Comparing run %1 with run %2…</source>
        <translation>正在对比运行 %1 与运行 %2…</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="331" />
        <source>Comparing runs %1 and %2 failed unexpectedly (%3). The session may be damaged; please report this with the file.</source>
        <translation>比较运行 %1 与 %2 时意外失败（%3）。会话可能已损坏；请附上该文件报告此问题。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="345" />
        <source>%1 [%2, %3]</source>
        <translation>%1 [%2, %3]</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="351" />
        <source>A = %1, B = %2: eval runs over %3 items. Accuracy (measured, Wilson 95 %) %4 → %5; paired change %6 [%7, %8]%9. Per item %10 ms → %11 ms (medians, measured), speed-up %12× [%13, %14]. %15 answers changed.</source>
        <translation>A = %1，B = %2：评测运行共 %3 个条目。准确率（实测，Wilson 95 % 区间）%4 → %5；配对变化 %6 [%7, %8]%9。每条目 %10 ms → %11 ms（中位数，实测），加速 %12× [%13, %14]。%15 个答案改变。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="369" />
        <source>Eval items</source>
        <translation>评测条目</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="399" />
        <source>A = %1, B = %2%3. A/B over %4 repetitions: %5 ms → %6 ms (medians, measured), speed-up %7× [%8, %9]%10.</source>
        <translation>A = %1，B = %2%3。A/B 共 %4 次重复：%5 ms → %6 ms（中位数，实测），加速比 %7× [%8, %9]%10。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="414" />
        <source>A = %1, B = %2%3. Latency %4 ms → %5 ms (measured, one probed run each, no interval: %6×).</source>
        <translation>A = %1，B = %2%3。延迟 %4 ms → %5 ms（实测，各一次带探针运行，无区间：%6×）。</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="360" />
        <location filename="../views/ComparisonView.cpp" line="407" />
        <source>, within noise</source>
        <translation>，在噪声范围内</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="410" />
        <source>. Warning: a phase the transforms cannot change moved too, so the machine was unsteady</source>
        <translation>。警告：变换无法影响的阶段也发生了变化，说明机器不稳定</translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="393" />
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
</context>
<context>
    <name>mvp::views::EvalItemHeatmaps</name>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="24" />
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="25" />
        <source>right</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="25" />
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="105" />
        <source>Choose an item to see where each run's model looked while it answered (answer_attention).</source>
        <translation>选择一个条目，查看两次运行的模型在回答时关注的位置（answer_attention）。</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="108" />
        <source>No heatmaps stored for item %1: they need the model's attention to be observable (the built-in model, a TorchScript model's attention roles, an eager model's softmax in its attention modules), observed unless the eval ran with --no-item-heatmaps (heatmaps=False in Python).</source>
        <translation>条目 %1 没有保存热力图：热力图需要模型的注意力可观测（内置模型、TorchScript 模型的注意力角色、急切模式模型注意力模块中的 softmax），除非评测使用了 --no-item-heatmaps（Python 中为 heatmaps=False），否则会观测记录。</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="123" />
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="124" />
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="127" />
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="128" />
        <source>one scale for A and B</source>
        <translation>A 与 B 共用一个色标</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="128" />
        <source>unit: attention weight</source>
        <translation>单位：注意力权重</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="130" />
        <source>Item %1, "%2": attention the answer's queries gave each patch, summed over the decoder's layers, from an untimed pass of each run. Colours run from 0 to the larger maximum of the two.</source>
        <translation>条目 %1，“%2”：生成答案的查询对每个图块的注意力，对解码器各层求和，来自每次运行的一次不计时推理。颜色范围从 0 到两者中较大的最大值。</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="136" />
        <source> Greyed on B: the patches whose tokens B's decoder never saw.</source>
        <translation> B 中灰显的是其解码器从未看到其词元的图块。</translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="146" />
        <source> The image %1 could not be read: the grids are drawn over grey.</source>
        <translation> 无法读取图像 %1：网格绘制在灰色背景上。</translation>
    </message>
</context>
<context>
    <name>mvp::views::EvalItemsModel</name>
    <message>
        <location filename="../views/ComparisonView.cpp" line="207" />
        <location filename="../views/EvalItemsModel.cpp" line="73" />
        <source>changed</source>
        <translation>已改变</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27" />
        <location filename="../views/EvalItemsModel.cpp" line="71" />
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27" />
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27" />
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="73" />
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="77" />
        <source>KL(A ‖ B) of the next-token distributions on this item, mean over the decode steps both produced (measured)</source>
        <translation>该条目上下一词元分布的 KL(A ‖ B)，对两者都生成的解码步取平均（实测）</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="86" />
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="88" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="90" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="92" />
        <source>Expected</source>
        <translation>期望答案</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="94" />
        <source>A's answer</source>
        <translation>A 的答案</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="96" />
        <source>B's answer</source>
        <translation>B 的答案</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="98" />
        <source>A right</source>
        <translation>A 正确</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="100" />
        <source>B right</source>
        <translation>B 正确</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="102" />
        <source>KL (measured)</source>
        <translation>KL（实测）</translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="104" />
        <source>Answer</source>
        <translation>答案</translation>
    </message>
</context>
<context>
    <name>mvp::views::ExpertLoadView</name>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="43" />
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="53" />
        <location filename="../views/ExpertLoadView.cpp" line="56" />
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="54" />
        <source>routing slots (measured)</source>
        <translation>路由槽位（实测）</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="57" />
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="63" />
        <source>load Z-score (derived)</source>
        <translation>负载 Z 分数（推导值）</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="92" />
        <source>e%1 (%2)</source>
        <translation>e%1（%2）</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="93" />
        <source>Token %1 was not routed (no MoE rows for it).</source>
        <translation>词元 %1 未经过路由（没有对应的 MoE 记录）。</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="96" />
        <source>L%1 → %2</source>
        <translation>L%1 → %2</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="101" />
        <source>Selected token %1%2: %3 (measured gate weights)</source>
        <translation>选中的词元 %1%2：%3（实测门控权重）</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="103" />
        <source> (patch %1)</source>
        <translation>（图像块 %1）</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="129" />
        <source>This run has no MoE routing.</source>
        <translation>此运行没有 MoE 路由记录。</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="130" />
        <source>This run was imported from a trace, which has no routing: the MoE views need an mvprof capture.</source>
        <translation>此运行导入自跟踪文件，其中没有路由记录：MoE 视图需要 mvprof 采集。</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="162" />
        <source>%1, visual</source>
        <translation>%1，视觉</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="163" />
        <source>%1, text</source>
        <translation>%1，文本</translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="205" />
        <source>Layer %1, %2: %3 slots over %4 tokens (measured). CV %5 · balancedness %6 · Jain %7 · MaxVio %8 · dead %9 · normalised entropy %10 · dashed: overload threshold (Δ = 1.8)</source>
        <translation>第 %1 层，%2：%4 个词元共 %3 个槽位（实测）。CV %5 · 均衡度 %6 · Jain %7 · MaxVio %8 · 空闲 %9 · 归一化熵 %10 · 虚线：过载阈值（Δ = 1.8）</translation>
    </message>
</context>
<context>
    <name>mvp::views::FindingsModel</name>
    <message>
        <location filename="../views/FindingsModel.cpp" line="16" />
        <source>Critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="18" />
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="22" />
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="74" />
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="76" />
        <source>Finding</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="78" />
        <source>Suggestion</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="80" />
        <source>View</source>
        <translation>视图</translation>
    </message>
</context>
<context>
    <name>mvp::views::FlameChartView</name>
    <message>
        <location filename="../views/FlameChartView.cpp" line="34" />
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="36" />
        <source>module span</source>
        <translation>模块区间</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="38" />
        <source>op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="40" />
        <source>GPU work</source>
        <translation>GPU 任务</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="42" />
        <source>CUDA API call</source>
        <translation>CUDA API 调用</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="116" />
        <source>No slices in this run</source>
        <translation>此运行没有时间片</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="170" />
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="173" />
        <source>time (measured)</source>
        <translation>时间（实测）</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="237" />
        <source>%1 (%2)
%3 ms (measured), from %4 ms</source>
        <translation>%1（%2）
%3 毫秒（实测），起于 %4 毫秒</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="255" />
        <source>The flame chart could not be built: %1</source>
        <translation>无法构建火焰图：%1</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="260" />
        <source>Find slices by name (Enter: next)</source>
        <translation>按名称查找时间片（回车：下一个）</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="362" />
        <source>%1 slices match</source>
        <translation>%1 个时间片匹配</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="298" />
        <source>%1 slices</source>
        <translation>%1 个时间片</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="319" />
        <source>Building the flame chart…</source>
        <translation>正在构建火焰图…</translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="371" />
        <source>match %1 of %2: %3</source>
        <translation>第 %1 / %2 个匹配：%3</translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapCanvas</name>
    <message>
        <location filename="../views/HeatmapCanvas.cpp" line="68" />
        <source>No image in this run</source>
        <translation>此运行没有图像</translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapView</name>
    <message>
        <location filename="../views/HeatmapView.cpp" line="25" />
        <source>Attention received</source>
        <translation>接收的注意力</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="26" />
        <source>Attention while answering</source>
        <translation>作答时的注意力</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="27" />
        <source>Expert FLOPs</source>
        <translation>专家 FLOPs</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="28" />
        <source>Expert latency share</source>
        <translation>专家延迟占比</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="29" />
        <source>Saliency (blend)</source>
        <translation>显著性（融合）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="30" />
        <source>Waste: cost without attention</source>
        <translation>浪费：有开销而少注意力</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="38" />
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="54" />
        <source>What colours each patch; the status bar says whether a value is measured or estimated</source>
        <translation>决定每个图块颜色的指标；状态栏会说明数值是实测还是估算</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="59" />
        <source>Count only the prompt's tokens (prefill) or the generated ones (decode)</source>
        <translation>只统计提示词的词元（预填充）或生成的词元（解码）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="62" />
        <source>Absolute (0 to max)</source>
        <translation>绝对（0 到最大值）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="63" />
        <source>Range (min to max)</source>
        <translation>范围（最小值到最大值）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="74" />
        <source>from layer </source>
        <translation>起始层 </translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="75" />
        <source>to layer </source>
        <translation>结束层 </translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="88" />
        <source>Opacity</source>
        <translation>不透明度</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="138" />
        <source>Patch %1 (row %2, column %3) · token %4</source>
        <translation>图像块 %1（第 %2 行，第 %3 列）· 词元 %4</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="154" />
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="159" />
        <source>layers %1–%2 (decoder)</source>
        <translation>第 %1–%2 层（解码器）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="269" />
        <source>uniform within %1 % of the mean, so not painted (the differences are below %2 %)</source>
        <translation>在均值的 %1 % 以内均匀，因此不着色（差异低于 %2 %）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="282" />
        <source>colours from 0 to the maximum (absolute)</source>
        <translation>颜色从 0 到最大值（绝对）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="283" />
        <source>colours from the minimum to the maximum (range)</source>
        <translation>颜色从最小值到最大值（范围）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="381" />
        <source>s, with SI prefixes</source>
        <translation>秒，带 SI 前缀</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="382" />
        <source>%1, with SI prefixes</source>
        <translation>%1，带 SI 前缀</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="309" />
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="379" />
        <source>none (score)</source>
        <translation>无（得分）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="370" />
        <location filename="../views/HeatmapView.cpp" line="385" />
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="64" />
        <source>Per layer (each to its maximum)</source>
        <translation>按层（各层相对其最大值）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="65" />
        <source>Absolute: colours from 0, so a small spread looks flat. Range: the smallest to the largest value, so any spread fills the colours. Per layer: each layer's values divided by that layer's maximum, then averaged over the layers shown, so a layer with larger values does not drown the others (unitless, derived). Values within %1 % of each other are shown as uniform.</source>
        <translation>绝对：颜色从 0 开始，因此很小的差异看起来是平的。范围：从最小值到最大值，因此任何差异都会占满颜色。按层：每层的值除以该层的最大值，再在所显示的层上取平均，因此数值较大的层不会淹没其他层（无单位，推导值）。彼此相差在 %1 % 以内的值显示为均匀。</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="92" />
        <source>Draw the patch boundaries (the model's patches)</source>
        <translation>绘制图块边界（模型的图块）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="97" />
        <source>Opacity of the patch boundaries</source>
        <translation>图块边界的不透明度</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="149" />
        <source>%1: %2 of each layer's maximum, averaged (%3)</source>
        <translation>%1：各层最大值的 %2，取平均（%3）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="274" />
        <source>each layer divided by its own maximum, then averaged over the layers shown (per layer, derived); colours from 0 to the largest average%1</source>
        <translation>每层除以其自身最大值，再在所显示的层上取平均（按层，推导值）；颜色从 0 到最大平均值%1</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="276" />
        <source> of both sides (one scale)</source>
        <translation>（两侧共用一个色标）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="279" />
        <source>colours from 0 to the maximum of both sides (absolute, one scale)</source>
        <translation>颜色从 0 到两侧的最大值（绝对，共用色标）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="280" />
        <source>colours from the minimum to the maximum of both sides (range, one scale)</source>
        <translation>颜色从两侧的最小值到最大值（范围，共用色标）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="371" />
        <source>layers %1–%2, each to its maximum</source>
        <translation>第 %1–%2 层，各层相对其最大值</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="372" />
        <source>unit: none (share of each layer's maximum)</source>
        <translation>单位：无（占各层最大值的比例）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="386" />
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="387" />
        <source>unit: %1</source>
        <translation>单位：%1</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="400" />
        <source>Computing the heatmap for layers %1–%2…</source>
        <translation>正在计算第 %1–%2 层的热力图…</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="417" />
        <source>The heatmap could not be computed: %1</source>
        <translation>无法计算热力图：%1</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="449" />
        <source>This run has no stored image.</source>
        <translation>此运行没有保存图像。</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="450" />
        <source>This run was imported from a trace, which has no image: heatmaps need an mvprof capture.</source>
        <translation>此运行导入自跟踪文件，其中没有图像：热力图需要 mvprof 采集。</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="461" />
        <source>No patch values in this run (captured with --no-probes?).</source>
        <translation>此运行没有图块数值（是否使用了 --no-probes 采集？）。</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="491" />
        <source>No %1 values for layers %2–%3.</source>
        <translation>第 %2–%3 层没有 %1 数值。</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="507" />
        <source>image %1 × %2 px</source>
        <translation>图像 %1 × %2 像素</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="508" />
        <source>image %1 × %2 px shown resized to the model's input shape, as its preprocessing resized it (square patches)</source>
        <translation>图像 %1 × %2 像素，按模型输入形状缩放显示，与其预处理的缩放一致（正方形图块）</translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="512" />
        <source>%1: %2 × %3 patches, layers %4–%5; %6; %7</source>
        <translation>%1：%2 × %3 个图块，第 %4–%5 层；%6；%7</translation>
    </message>
</context>
<context>
    <name>mvp::views::Labels</name>
    <message>
        <location filename="../views/Labels.cpp" line="11" />
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="13" />
        <source>run %1 · %2</source>
        <translation>运行 %1 · %2</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="19" />
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="21" />
        <source>estimated</source>
        <translation>估算</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="23" />
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="25" />
        <source>derived</source>
        <translation>推导</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="27" />
        <source>apportioned</source>
        <translation>分摊</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="33" />
        <source>All phases</source>
        <translation>全部阶段</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="34" />
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="35" />
        <source>Decode</source>
        <translation>解码</translation>
    </message>
</context>
<context>
    <name>mvp::views::LiveRunsModel</name>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="35" />
        <source>stale (process gone)</source>
        <translation>失效（进程已退出）</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="35" />
        <source>live</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="47" />
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="49" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="51" />
        <source>Session file</source>
        <translation>会话文件</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="53" />
        <source>Started (UTC)</source>
        <translation>开始时间（UTC）</translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="55" />
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleDiffModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="367" />
        <location filename="../views/ComparisonModels.cpp" line="370" />
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="398" />
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="400" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="402" />
        <source>A ms (measured)</source>
        <translation>A 毫秒（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="404" />
        <source>B ms (measured)</source>
        <translation>B 毫秒（实测）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="406" />
        <source>Δ ms</source>
        <translation>Δ 毫秒</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="408" />
        <source>Δ self ms</source>
        <translation>Δ 自身毫秒</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="410" />
        <source>B ÷ A</source>
        <translation>B ÷ A</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="412" />
        <source>Δ FLOPs (estimated)</source>
        <translation>Δ FLOPs（估算）</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="414" />
        <source>Δ bytes (estimated)</source>
        <translation>Δ 字节（估算）</translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeModel</name>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="68" />
        <source>memory</source>
        <translation>访存</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="69" />
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="130" />
        <source>%1 (%2 parameters)</source>
        <translation>%1（%2 个参数）</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="143" />
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="145" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="147" />
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="149" />
        <source>Total ms</source>
        <translation>总耗时 毫秒</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="151" />
        <source>Self ms</source>
        <translation>自身耗时 毫秒</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="153" />
        <source>% of run</source>
        <translation>占运行 %</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="155" />
        <source>GFLOP (est.)</source>
        <translation>GFLOP（估算）</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="157" />
        <source>MB (est.)</source>
        <translation>MB（估算）</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="159" />
        <source>FLOP/B (est.)</source>
        <translation>FLOP/B（估算）</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="161" />
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="163" />
        <source>GPU ms</source>
        <translation>GPU 毫秒</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="167" />
        <source>Measured wall time</source>
        <translation>实测墙钟时间</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="169" />
        <source>Memory- or compute-bound against the device's measured ridge point</source>
        <translation>相对设备实测拐点判定为访存受限或计算受限</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="171" />
        <source>Measured GPU time of the module, children included: the kernels, copies and fills launched inside it (CUPTI or the trace's profiler), or without them the time between CUDA events at each call's start and end</source>
        <translation>模块（含子模块）的 GPU 时间（实测）：其内部启动的内核、拷贝与填充（来自 CUPTI 或跟踪文件的分析器），若无这些记录，则为每次调用起止处 CUDA 事件之间的时间</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="174" />
        <source>Estimated from the recorded op shapes</source>
        <translation>由记录的算子形状估算</translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeView</name>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="46" />
        <source>Filter modules (e.g. expert, layer.1, attn)</source>
        <translation>筛选模块（例如 expert、layer.1、attn）</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="56" />
        <source>Show only modules of one kind</source>
        <translation>只显示某一类型的模块</translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="100" />
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
</context>
<context>
    <name>mvp::views::OpTableModel</name>
    <message>
        <location filename="../views/OpTableView.cpp" line="74" />
        <source>Estimated from the op shapes</source>
        <translation>由算子形状估算</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="75" />
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="77" />
        <source>Share of the op's time whose FLOPs are known (derived)</source>
        <translation>FLOPs 已知部分占该算子时间的比例（推导值）</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="83" />
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="85" />
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="87" />
        <source>Total ms</source>
        <translation>总耗时 毫秒</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="89" />
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="91" />
        <source>GFLOP*</source>
        <translation>GFLOP*</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="93" />
        <source>MB*</source>
        <translation>MB*</translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="95" />
        <source>FLOPs known</source>
        <translation>FLOPs 已知</translation>
    </message>
</context>
<context>
    <name>mvp::views::OpTableView</name>
    <message>
        <location filename="../views/OpTableView.cpp" line="103" />
        <source>Filter ops by name</source>
        <translation>按名称筛选算子</translation>
    </message>
</context>
<context>
    <name>mvp::views::ParetoView</name>
    <message>
        <location filename="../views/ParetoView.cpp" line="30" />
        <source>Latency ratio, 1 / speed-up (measured)</source>
        <translation>延迟比，1 / 加速比（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="31" />
        <source>Prefill FLOPs or KV bytes ratio</source>
        <translation>预填充 FLOPs 或 KV 字节比</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="32" />
        <source>KL mean to the baseline (measured)</source>
        <translation>相对基线的平均 KL（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="33" />
        <location filename="../views/ParetoView.cpp" line="173" />
        <source>Top-1 agreement (measured)</source>
        <translation>Top-1 一致率（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="34" />
        <location filename="../views/ParetoView.cpp" line="174" />
        <source>Token match (measured)</source>
        <translation>词元匹配率（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="36" />
        <source>Cost:</source>
        <translation>代价：</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="38" />
        <source>Fidelity:</source>
        <translation>保真度：</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="63" />
        <location filename="../views/ParetoView.cpp" line="170" />
        <source>KV bytes ratio (measured)</source>
        <translation>KV 字节比（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="64" />
        <location filename="../views/ParetoView.cpp" line="171" />
        <source>Prefill FLOPs ratio (estimated)</source>
        <translation>预填充 FLOPs 比（估算）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="148" />
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="156" />
        <source>%1 runs against baseline run %2; %3 on the front (none cheaper loses less), by medians; bars: the latency ratio's interval (A/B, measured; ≈ 95 % from 6 repetitions on, less with fewer). Click a point to open its comparison.</source>
        <translation>%1 次运行对照基线运行 %2；按中位数有 %3 个在前沿上（没有更便宜且损失更小的）；误差线：延迟比的区间（A/B，实测；6 次重复起约 95 %，更少则更低）。点击一个点可打开其比较。</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="169" />
        <source>1 / speed-up (measured)</source>
        <translation>1 / 加速比（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="172" />
        <source>KL mean (measured)</source>
        <translation>KL 均值（实测）</translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="207" />
        <source>%1 at %2 (%3): run %4
cost %5 · fidelity %6</source>
        <translation>%1 在 %2（%3）：运行 %4
代价 %5 · 保真度 %6</translation>
    </message>
</context>
<context>
    <name>mvp::views::PlacementDialog</name>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="66" />
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="68" />
        <source>Balancedness before (derived)</source>
        <translation>之前的均衡度（推导值）</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="70" />
        <source>After (derived)</source>
        <translation>之后（推导值）</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="72" />
        <source>Replicated experts</source>
        <translation>复制的专家</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="89" />
        <source>Expert Placement (EPLB) — run %1</source>
        <translation>专家放置（EPLB）—— 运行 %1</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="93" />
        <source>Physical expert slots in all: the experts plus the redundant ones</source>
        <translation>物理专家槽位总数：专家数加冗余副本数</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="94" />
        <source>GPUs the slots are spread over</source>
        <translation>槽位分布到的 GPU 数</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="95" />
        <source>Expert groups (DeepSeek-V3: 8)</source>
        <translation>专家组数（DeepSeek-V3：8）</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="96" />
        <source>Servers; the hierarchical policy keeps replicas within one</source>
        <translation>服务器数；分层策略将副本保持在同一台服务器内</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="102" />
        <source>All tokens</source>
        <translation>所有词元</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="103" />
        <source>Visual tokens</source>
        <translation>视觉词元</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="104" />
        <source>Text tokens</source>
        <translation>文本词元</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="106" />
        <source>Replicas:</source>
        <translation>副本数：</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="107" />
        <source>GPUs:</source>
        <translation>GPU 数：</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="108" />
        <source>Groups:</source>
        <translation>组数：</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="109" />
        <source>Nodes:</source>
        <translation>节点数：</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="110" />
        <source>Load from:</source>
        <translation>负载来源：</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="130" />
        <source>&amp;Save SGLang Placement…</source>
        <translation>保存 SGLang 放置方案(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="169" />
        <source>EPLB cannot place this: %1</source>
        <translation>EPLB 无法放置：%1</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="178" />
        <source>%1 (×%2)</source>
        <translation>%1（×%2）</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="185" />
        <source>%1 policy, %2 routed token slots (measured). Balancedness = mean ÷ max of the GPUs' loads in a layer (1 = even), each expert's load split evenly over its replicas (derived); before = SGLang's trivial placement. Over %3 layers: worst %4 → %5, median %6 → %7.</source>
        <translation>%1 策略，%2 个已路由的词元槽位（实测）。均衡度 = 一层中各 GPU 负载的均值 ÷ 最大值（1 = 均匀），每个专家的负载在其副本间平均分摊（推导值）；之前 = SGLang 的平凡放置。在 %3 层中：最差 %4 → %5，中位数 %6 → %7。</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="198" />
        <source>EPLB's placement is predicted to balance %1 layer(s) worse than the trivial one: keep the trivial placement there, or try another number of replicas.</source>
        <translation>预测 EPLB 的放置会使 %1 层的均衡度比平凡放置更差：这些层请保留平凡放置，或尝试其他副本数。</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="214" />
        <location filename="../views/PlacementDialog.cpp" line="221" />
        <source>Save SGLang Placement</source>
        <translation>保存 SGLang 放置方案</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="215" />
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="222" />
        <source>SGLang --init-expert-location (*.json)</source>
        <translation>SGLang --init-expert-location（*.json）</translation>
    </message>
</context>
<context>
    <name>mvp::views::PlotLegend</name>
    <message>
        <location filename="../views/PlotLegend.cpp" line="53" />
        <source>Show Legend</source>
        <translation>显示图例</translation>
    </message>
</context>
<context>
    <name>mvp::views::RooflineView</name>
    <message>
        <location filename="../views/RooflineView.cpp" line="24" />
        <location filename="../views/RooflineView.cpp" line="63" />
        <source>arithmetic intensity (FLOP/byte, estimated)</source>
        <translation>算术强度（FLOP/字节，估算）</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="25" />
        <source>performance (FLOP/s)</source>
        <translation>性能（FLOP/s）</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="50" />
        <source>No device ceilings were recorded for this run: no roofline.</source>
        <translation>此运行未记录设备性能上限：无法绘制屋顶线。</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="51" />
        <source>This run was imported from a trace, which does not measure its machine's ceilings: no roofline (the op table and flame chart show its ops).</source>
        <translation>此运行导入自跟踪文件，其中没有测量机器的性能上限：无法绘制屋顶线（算子表与火焰图展示其算子）。</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="62" />
        <source>arithmetic intensity (FLOP/byte, GPU counters)</source>
        <translation>算术强度（FLOP/字节，GPU 计数器）</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="74" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="86" />
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="114" />
        <source>%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ kernel time; FLOPs, DRAM bytes and kernel time are measured by the GPU's counters.</source>
        <translation>%1 个模块；蓝色：访存受限，橙色：计算受限，设备 %2（拐点 %3 FLOP/B，实测）。点面积 ∝ 内核耗时；FLOPs、DRAM 字节数与内核耗时均由 GPU 硬件计数器实测。</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="117" />
        <source>%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ time (measured); FLOPs and bytes are estimated from op shapes.</source>
        <translation>%1 个模块；蓝色：访存受限，橙色：计算受限，设备 %2（拐点 %3 FLOP/B，实测）。点面积 ∝ 耗时（实测）；FLOPs 与字节数由算子形状估算。</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="123" />
        <source>Roofs: %1.</source>
        <translation>屋顶：%1。</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="151" />
        <source>%1
AI %2 FLOP/B (%7) · %3 GFLOP/s achieved (measured time)
%4 ms · %5-bound · attainable %6 GFLOP/s (predicted)</source>
        <translation>%1
算术强度 %2 FLOP/B（%7）· 达到 %3 GFLOP/s（实测时间）
%4 毫秒 · %5 受限 · 可达 %6 GFLOP/s（预测）</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="159" />
        <source>GPU counters</source>
        <translation>GPU 计数器</translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="159" />
        <source>estimated</source>
        <translation>估算</translation>
    </message>
</context>
<context>
    <name>mvp::views::RunMetricsModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="313" />
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="315" />
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="317" />
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="319" />
        <source>Measured or predicted</source>
        <translation>实测或预测</translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="321" />
        <source>How it was obtained</source>
        <translation>获得方式</translation>
    </message>
</context>
<context>
    <name>mvp::views::RunsModel</name>
    <message>
        <location filename="../views/RunsView.cpp" line="17" />
        <source>live</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="19" />
        <source>complete</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="21" />
        <source>incomplete</source>
        <translation>未完成</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="23" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="69" />
        <source>(baseline)</source>
        <translation>（基线）</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="84" />
        <source>%1
image %2
prompt "%3"
%4</source>
        <translation>%1
图像 %2
提示词“%3”
%4</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="94" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="96" />
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="98" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="100" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="102" />
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="104" />
        <source>Transform</source>
        <translation>变换</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="106" />
        <source>Wall ms (measured)</source>
        <translation>墙钟 毫秒（实测）</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="108" />
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="110" />
        <source>Generated text</source>
        <translation>生成的文本</translation>
    </message>
</context>
<context>
    <name>mvp::views::SweepTableModel</name>
    <message>
        <location filename="../views/SweepModels.cpp" line="64" />
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="74" />
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="81" />
        <source>%1× [%2, %3]%4</source>
        <translation>%1× [%2, %3]%4</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="85" />
        <source> within noise</source>
        <translation> 在噪声范围内</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="105" />
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="107" />
        <source>Budget (KV fraction)</source>
        <translation>预算（KV 比例）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="107" />
        <source>Budget (tokens)</source>
        <translation>预算（词元数）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="109" />
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="111" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="113" />
        <source>Positions/head (measured)</source>
        <translation>每头位置数（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="113" />
        <source>Tokens held (measured)</source>
        <translation>保留的词元数（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="115" />
        <source>Speed-up (A/B, measured)</source>
        <translation>加速比（A/B，实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="117" />
        <source>KV bytes ratio (measured)</source>
        <translation>KV 字节比（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="117" />
        <source>Prefill FLOPs ratio (estimated)</source>
        <translation>预填充 FLOPs 比（估算）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="119" />
        <source>KL mean (measured)</source>
        <translation>KL 均值（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="121" />
        <source>Top-1 agreement (measured)</source>
        <translation>Top-1 一致率（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="123" />
        <source>Token match (measured)</source>
        <translation>词元匹配率（实测）</translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="125" />
        <source>Why not run</source>
        <translation>未运行的原因</translation>
    </message>
</context>
<context>
    <name>mvp::views::TimelineView</name>
    <message>
        <location filename="../views/TimelineView.cpp" line="63" />
        <source>time since the run began (ms, measured)</source>
        <translation>自运行开始的时间（毫秒，实测）</translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="138" />
        <source>No MoE layers were probed in this run: nothing to show on the timeline.</source>
        <translation>此运行没有探测到 MoE 层：时间线无内容可显示。</translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="161" />
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="174" />
        <source>%1 gate and expert spans in %2 lanes; red: router, blue: experts, darker: several spans folded into one pixel; the top strip: yellow prefill, green decode steps; shaded lanes: the experts the selected token went to.</source>
        <translation>%2 条泳道中共 %1 个门控和专家区间；红色：路由器，蓝色：专家，较深：多个区间折叠到一个像素；顶部条带：黄色为预填充，绿色为解码步；阴影泳道：所选词元去往的专家。</translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="222" />
        <source>%1: %2 span(s), %3–%4 ms (measured)</source>
        <translation>%1：%2 个区间，%3–%4 毫秒（实测）</translation>
    </message>
</context>
</TS>