<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <location filename="../views/Export.cpp" line="48"/>
        <location filename="../views/Export.cpp" line="58"/>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="50"/>
        <location filename="../views/Export.cpp" line="61"/>
        <source>Writing %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="55"/>
        <source>There is no image to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="60"/>
        <source>Encoding %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="18"/>
        <source>MoE-Visual Profiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="23"/>
        <source>A session (.mvprof) or a trace (.json, .json.gz, .sqlite) to open</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::AttachDialog</name>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="20"/>
        <source>Attach to a Running Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="27"/>
        <source>Attach</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="28"/>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="29"/>
        <source>Remove Stale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="39"/>
        <source>Captures running on this machine (mvprof-cli or any program using the capture library):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::CaptureDialog</name>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="51"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="360"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="364"/>
        <source>New Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="53"/>
        <source>Reference, tiny (seconds)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="54"/>
        <source>Reference, small (up to a minute on CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="55"/>
        <source>Reference, LLaVA-MoE 7B class (large GPU, or truncate depth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="69"/>
        <source>the model&apos;s manifest, e.g. example-vlm.json (see docs/user-models.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="71"/>
        <source>all layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="72"/>
        <source>Truncate the model to this many vision and decoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="76"/>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="81"/>
        <source>float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="82"/>
        <source>bfloat16 (half the weight and KV bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="97"/>
        <source>The precision of weights, activations and the KV cache (float16 needs a GPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="98"/>
        <source>e.g. all, 0-1 or 0,3 (empty: none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="99"/>
        <source>Decoder layers whose per-head attention maps are stored (for head redundancy and saliency)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="105"/>
        <source>Expert popularity ∝ (rank + 1)^−skew; 0 leaves routing to the router alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="106"/>
        <source>Describe the image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="112"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="139"/>
        <source>Depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="140"/>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="113"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="120"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="126"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="133"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="140"/>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="48"/>
        <source>Read the GPU&apos;s hardware counters (replays the run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="57"/>
        <source>User model (TorchScript + manifest)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="58"/>
        <source>Python script (profiles its model with the mvprof package)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="60"/>
        <source>Any CUDA program (its kernels and copies, through CUPTI)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="62"/>
        <source>an unmodified program that uses CUDA; each of its CUDA processes becomes a run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="64"/>
        <source>a script calling mvprof.profile(None, model, …), e.g. llava_moe.py</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="66"/>
        <source>its arguments, e.g. --steps 8 --image photo.jpg</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="67"/>
        <source>empty: the script&apos;s folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="79"/>
        <source>Looking for CUDA devices…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="83"/>
        <source>float16 (a GPU&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="85"/>
        <source>CUDA events around module spans</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="86"/>
        <source>Exact: wait for the GPU at every probe (slower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="88"/>
        <source>Off: host launch times only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="91"/>
        <source>After the run, replay it under CUPTI&apos;s range profiler for each module&apos;s DRAM bytes, FLOPs and kernel time; the roofline then plots those instead of estimates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="94"/>
        <source>How a GPU capture times its modules on the device; exact mode makes every op and module time include its GPU work, at the cost of a wait at each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="115"/>
        <source>Choose a Model Manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="116"/>
        <source>Model manifests (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="119"/>
        <source>Model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="121"/>
        <source>Choose a Python Script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="122"/>
        <source>Python (*.py)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="125"/>
        <source>Script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="128"/>
        <source>Choose a CUDA Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="131"/>
        <source>Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="132"/>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="135"/>
        <source>Working Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="138"/>
        <source>Working folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="142"/>
        <source>Choose an Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="143"/>
        <source>Images (*.png *.jpg *.jpeg *.bmp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="147"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="148"/>
        <source>Decode steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="149"/>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="150"/>
        <source>Device timing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="152"/>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="153"/>
        <source>Attention maps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="154"/>
        <source>Routing skew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="155"/>
        <source>Session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="155"/>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="157"/>
        <source>Session File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="158"/>
        <source>mvprof sessions (*.mvprof)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="165"/>
        <source>Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="192"/>
        <source>Could not ask %1 for devices: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="206"/>
        <source>%1 did not list devices: only the CPU is offered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="214"/>
        <source>%1: %2 (%3 GiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="223"/>
        <source>No CUDA device: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="330"/>
        <source>No image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="330"/>
        <source>Cannot read this image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="334"/>
        <source>%1 × %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="346"/>
        <source>Choose the user model&apos;s manifest (a .json file next to its TorchScript archive).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="348"/>
        <source>Choose the CUDA program to run (an executable file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="350"/>
        <source>Choose the Python script to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="352"/>
        <source>The working folder does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="354"/>
        <source>Choose an image file that exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="356"/>
        <source>Choose where to write the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="358"/>
        <source>The session&apos;s folder is not writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="365"/>
        <source>%1 exists. Replace it?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::CaptureRunner</name>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="65"/>
        <source>Could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="74"/>
        <source>The mvprof-cli process crashed; the session keeps what it wrote.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="75"/>
        <source>The mvprof-cli process exited with status %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::CompareMethodsDialog</name>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="36"/>
        <source>Compare Methods</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="37"/>
        <source>Visual-token methods (budget: image tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="38"/>
        <source>KV-cache methods (budget: fraction of the prompt kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="40"/>
        <source>Each method runs at each budget against the baseline, as a what-if of its own, stored in the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="43"/>
        <source>Family:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="50"/>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="56"/>
        <source>Comma-separated; empty: 192, 128, 64 of 576 image tokens (scaled to the model), or 0.4, 0.2, 0.1 of the KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="58"/>
        <source>Budgets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="61"/>
        <source>A/B repetitions per point:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="63"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::CompareMethodsWindow</name>
    <message>
        <location filename="../app/gui/CompareMethods.cpp" line="96"/>
        <source>Compare Methods</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::MainWindow</name>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="109"/>
        <source>mvprof — MoE-Visual Profiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="28"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="29"/>
        <source>&amp;New Capture…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="31"/>
        <source>&amp;Attach…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="32"/>
        <source>&amp;Open Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="34"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="35"/>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="37"/>
        <source>Heatmap Overlay as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="38"/>
        <source>Heatmap with Colour Bar as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="39"/>
        <source>Heatmap Grid as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="40"/>
        <source>Module Table as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="41"/>
        <source>Findings as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="42"/>
        <source>Report as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="43"/>
        <source>Expert Load Plot as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="44"/>
        <source>Expert Load Plot as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="45"/>
        <source>Timeline as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="46"/>
        <source>Timeline as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="50"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="144"/>
        <source>&amp;What-if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="145"/>
        <source>What-if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="160"/>
        <source>Expert &amp;Placement (EPLB)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="180"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="182"/>
        <source>Run: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="186"/>
        <source>The run the views show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="215"/>
        <source>Back to run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="218"/>
        <source>Now showing run %1, the what-if&apos;s result; &quot;Back to run %2&quot; in the toolbar returns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="56"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="57"/>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="59"/>
        <location filename="../app/gui/MainWindowMenus.cpp" line="74"/>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="65"/>
        <source>The language changes when mvprof starts again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="70"/>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="74"/>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="74"/>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="227"/>
        <source>Module cost tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="229"/>
        <source>Expert load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="233"/>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="235"/>
        <source>Ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="238"/>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="241"/>
        <source>Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="242"/>
        <source>Gate vs expert timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="245"/>
        <source>Flame chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="249"/>
        <source>What-if comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="401"/>
        <source>Sessions and traces (*.mvprof *.json *.json.gz *.sqlite);;mvprof sessions (*.mvprof);;torch.profiler traces (*.json *.json.gz);;Nsight Systems SQLite exports (*.sqlite);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="112"/>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="114"/>
        <source>&amp;Documentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="119"/>
        <source>Documentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="120"/>
        <source>The documentation is in the docs/ folder of mvprof&apos;s sources: README.md first, then docs/gui.md for this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="123"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="125"/>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="126"/>
        <source>Ctrl+N  New Capture
Ctrl+O  Open a session or trace
Ctrl+Q  Quit
Timeline and flame chart: + and − zoom, Home shows the whole run, the wheel zooms, drag pans
Flame chart search: Enter finds the next match
Compare Methods: Escape closes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="132"/>
        <source>&amp;About mvprof</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="133"/>
        <source>About mvprof</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowMenus.cpp" line="134"/>
        <source>&lt;b&gt;mvprof %1&lt;/b&gt; — the MoE-Visual Profiler: where every millisecond, byte and FLOP of one image and prompt goes in a vision-language model, and what a what-if changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="30"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="46"/>
        <source> · ~%1 s left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="51"/>
        <source>decode %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="53"/>
        <source>decode %1/%2 · %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="55"/>
        <source>A/B pass %1/%2 · %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="56"/>
        <source>%1 · %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="81"/>
        <source>The capture failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="81"/>
        <source>The what-if failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="92"/>
        <source>What-if complete: see the comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="93"/>
        <source>What-if cancelled: the run is kept, marked incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="94"/>
        <source>What-if failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="100"/>
        <source>Capture complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="101"/>
        <source>Capture cancelled: the run is kept, marked incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="102"/>
        <source>Capture failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="221"/>
        <source>Comparing %1 against run %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="135"/>
        <source>No session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="400"/>
        <source>Open Session or Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="458"/>
        <location filename="../app/gui/MainWindow.cpp" line="460"/>
        <source>Could not open the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="110"/>
        <location filename="../app/gui/MainWindowJobs.cpp" line="118"/>
        <source>A capture is already running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="132"/>
        <source>Describe the image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="183"/>
        <source>Running %1 with the mvprof package…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="189"/>
        <source>Capturing %1 on %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="195"/>
        <source>Open a session with a baseline run first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="199"/>
        <source>Wait for the running job to finish, or cancel it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowJobs.cpp" line="212"/>
        <source>Running what-if %1 against run %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="67"/>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="448"/>
        <source>Opening %1 failed unexpectedly (%2). The file may be damaged; please report this with the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="504"/>
        <source>%1 · %2 · run %3 (%4) · %5 ms wall (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="509"/>
        <source>%1 — mvprof</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="511"/>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="24"/>
        <source>Open a session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="32"/>
        <source>This run has no heatmap values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="48"/>
        <location filename="../app/gui/MainWindowExport.cpp" line="53"/>
        <source>Writing %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="56"/>
        <source>Unknown export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="61"/>
        <source>Open a session first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="68"/>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="69"/>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="70"/>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="71"/>
        <source>CSV tables (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="81"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="88"/>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindowExport.cpp" line="90"/>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::WelcomePage</name>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="13"/>
        <source>&lt;h2&gt;mvprof — MoE-Visual Profiler&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="15"/>
        <source>Where every millisecond, byte and FLOP of one image and prompt goes in a vision-language model: a heatmap over the image&apos;s patches, the module cost tree, expert load, the gate-vs-expert timeline, a flame chart and the roofline — and what-ifs (token pruning, quantisation, KV-cache compression, frozen experts) run side by side with error bars.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="27"/>
        <source>New Capture…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="28"/>
        <source>Capture the Demo Scene…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="29"/>
        <source>The trained built-in model (ref:demo) asked about a bundled scene, as ./run.sh does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="31"/>
        <source>Open a Session or Trace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="32"/>
        <source>An mvprof session, a torch.profiler trace (.json, .json.gz) or an Nsight Systems SQLite export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="41"/>
        <source>Recent sessions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="55"/>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WelcomePage.cpp" line="60"/>
        <source>(none yet)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfActions</name>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="239"/>
        <source>W4 + KV INT4 + Prune 0.4 (the design note&apos;s setup)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="240"/>
        <source>W4+KV+Prune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="220"/>
        <source>Run again with: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="242"/>
        <source>&amp;Custom What-if…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="250"/>
        <source>Compare &amp;Methods…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfDialog</name>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="114"/>
        <source>Custom What-if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="119"/>
        <source>by the attention the patches received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="121"/>
        <source>by the saliency map (needs attention maps)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="123"/>
        <source>by the visual features&apos; norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="71"/>
        <source>No weight quantisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="67"/>
        <source>No visual tokens dropped inside the decoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="69"/>
        <source>The encoder sends every visual token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="73"/>
        <source>No published KV-cache method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="94"/>
        <source>The fraction of the prompt&apos;s positions each KV head keeps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="137"/>
        <source>Both setups re-run this many times each, interleaved, so the speed-up comes with an interval; 0 compares one run of each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="117"/>
        <source>The transforms apply together in one real run of the baseline&apos;s inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="139"/>
        <source>A/B repetitions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/WhatIf.cpp" line="141"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::WhatIfMethods</name>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34"/>
        <source>Saliency pruning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34"/>
        <source>Prune Visual Tokens (keep 40 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="34"/>
        <source>Prune 0.4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="35"/>
        <source>Prune visual tokens, keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="35"/>
        <source>prune %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="40"/>
        <source>FastV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="40"/>
        <source>FastV: Drop Half the Image Tokens from Layer 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="41"/>
        <source>FastV (from layer 2, drop the fraction least attended)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="41"/>
        <source>FastV R %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="46"/>
        <location filename="../core/whatif/Methods.cpp" line="47"/>
        <source>PyramidDrop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="46"/>
        <source>PyramidDrop: Halve the Image Tokens at Each Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="48"/>
        <source>PyramidDrop (at L/4, L/2, 3L/4, keep the fraction most attended)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="49"/>
        <source>PyramidDrop λ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="55"/>
        <source>DART</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="55"/>
        <source>DART: Keep 132 Image Tokens Unlike Its Pivots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="56"/>
        <source>DART (after layer 2, keep 4 + 8·⌊N/8⌋ tokens least like 8 pivots), N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="57"/>
        <source>DART %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63"/>
        <source>VisionZip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63"/>
        <source>VisionZip: Send 64 Visual Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="63"/>
        <source>VisionZip 64</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="64"/>
        <source>VisionZip (most attended + contextual merges), tokens sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="65"/>
        <source>VisionZip %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="71"/>
        <source>ToMe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="71"/>
        <source>ToMe: Merge 8 Tokens in Every Vision Block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="72"/>
        <source>ToMe (merge in every vision block), tokens merged per block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="73"/>
        <source>ToMe r %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="78"/>
        <source>Downsampled image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="78"/>
        <source>Downsample the Image to 64 Visual Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="79"/>
        <source>Downsample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="79"/>
        <source>Downsample baseline (the image resized), tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="80"/>
        <source>downsample to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="85"/>
        <source>Vision MLP channel pruning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="85"/>
        <source>Prune Vision MLP Channels (30 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="86"/>
        <source>Channels 0.3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="86"/>
        <source>Prune vision MLP channels, fraction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="87"/>
        <source>prune channels %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="98"/>
        <location filename="../core/whatif/Methods.cpp" line="99"/>
        <source>W8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="98"/>
        <source>Quantise Weights to W8 (AWQ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="99"/>
        <source>W8, AWQ, int8 kernels where libtorch has them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="92"/>
        <location filename="../core/whatif/Methods.cpp" line="93"/>
        <source>W4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="92"/>
        <source>Quantise Weights to W4 (AWQ)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="93"/>
        <source>W4, group 128, AWQ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104"/>
        <source>KV merge + INT4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104"/>
        <source>Compress the KV Cache (merge + INT4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="104"/>
        <location filename="../core/whatif/Methods.cpp" line="105"/>
        <source>KV INT4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="105"/>
        <source>Compress the KV cache (merge similar visual keys, INT4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="109"/>
        <location filename="../core/whatif/Methods.cpp" line="110"/>
        <source>StreamingLLM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="109"/>
        <source>StreamingLLM: Keep 40 % of the KV Cache (sinks + recent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="110"/>
        <source>StreamingLLM (4 attention sinks + the most recent), keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="111"/>
        <source>StreamingLLM KV %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="115"/>
        <source>H2O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="115"/>
        <source>H2O: Keep 40 % of the KV Cache (heavy hitters + recent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="116"/>
        <source>H2O 0.4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="116"/>
        <source>H2O (heavy hitters + the most recent, every step), keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="117"/>
        <source>H2O KV %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="121"/>
        <location filename="../core/whatif/Methods.cpp" line="122"/>
        <source>SnapKV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="121"/>
        <source>SnapKV: Keep 40 % of the KV Cache (the prompt&apos;s votes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="122"/>
        <source>SnapKV (the prompt&apos;s last 32 queries vote, once), keep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="123"/>
        <source>SnapKV KV %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="127"/>
        <source>KIVI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="127"/>
        <source>KIVI: Hold the KV Cache in 2 Bits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="128"/>
        <source>KIVI (2-bit keys per channel, values per token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="128"/>
        <source>KIVI 2-bit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133"/>
        <source>Cold-expert freezing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133"/>
        <source>Freeze Cold Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="133"/>
        <source>Freeze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="134"/>
        <source>Freeze cold experts (&lt; 3 activations in two windows of 128 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="135"/>
        <source>freeze cold experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="141"/>
        <source>Expert skipping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="141"/>
        <source>Skip Weak Second Experts (β = the median w₂/w₁)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="142"/>
        <source>Skip Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="143"/>
        <source>Skip a token&apos;s lower-ranked expert below β × the top-1&apos;s weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="144"/>
        <source>skip experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="150"/>
        <source>Expert pruning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="150"/>
        <source>Prune Experts, Keep 6 per MoE Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="151"/>
        <source>Keep Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="151"/>
        <source>Prune experts, keep per MoE layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="152"/>
        <source>keep %1 experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="238"/>
        <source>tokens sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="240"/>
        <source>layer-averaged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../core/whatif/Methods.cpp" line="242"/>
        <source>kept after its cut</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::AbChart</name>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="127"/>
        <source>No A/B repetitions for this pair: one stored run each, no interval. Run the what-if again (it repeats both setups by default).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="143"/>
        <source>A (blue) and B (orange): median ms with its interval as an error bar (measured); each phase on its own scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="150"/>
        <source>%1× %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::AbTimingsModel</name>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="12"/>
        <source>%1 [%2, %3]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="19"/>
        <source>within noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="20"/>
        <source>faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="21"/>
        <source>slower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="23"/>
        <source> · noise control</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="24"/>
        <source> · noise control: machine unsteady</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="59"/>
        <source>%1× [%2, %3]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="82"/>
        <source>%1 repetitions each; the interval is a pair of order statistics covering the median with %2 % confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="93"/>
        <source>Phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="95"/>
        <source>A ms, median [interval] (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="97"/>
        <source>B ms, median [interval] (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="99"/>
        <source>Speed-up A/B (derived, paired)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/AbTimingsView.cpp" line="101"/>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ComparisonModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="15"/>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="24"/>
        <source>Measured: the median of the interleaved A/B repetitions without probes (%1 pairs), with its 95 % interval; the summary&apos;s speed-up comes from the same repetitions. QPS derived: 1 / latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="30"/>
        <source>Measured: the median wall time per item over the items (%1), with its 95 % interval. QPS derived: 1 / latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="34"/>
        <source>Measured: one run each, with the probes on, so no interval; run the what-if with repetitions (--reps) to compare latency. QPS derived: 1 / latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="123"/>
        <source>%1 (predicted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="154"/>
        <source>%1 (%2 vs measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="202"/>
        <source>Derived: the run&apos;s weights plus the most its tensors grew by during the run (libtorch&apos;s CUDA caching allocator, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="204"/>
        <source>Not a GPU run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="208"/>
        <source>Predicted: an int4/int8 kernel reading the packed weights, from the roofline of bytes moved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="212"/>
        <source>Measured: the capture with its probes on, one run — what it cost to record, not for comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="214"/>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="240"/>
        <source>Setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="244"/>
        <source>Latency ms (A/B median, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="246"/>
        <source>Latency ms per item (median, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="248"/>
        <source>Latency ms (one probed run, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="252"/>
        <source>Probed run ms (not for comparison)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="254"/>
        <source>Peak RSS MiB (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="256"/>
        <source>Peak GPU MiB (derived)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="258"/>
        <source>QPS (derived, 1/latency)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="260"/>
        <source>J/inference (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="262"/>
        <source>Weights MiB (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="264"/>
        <source>KV cache MiB (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="266"/>
        <source>Visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="268"/>
        <source>KL mean (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="270"/>
        <source>Top-1 agreement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="272"/>
        <source>Token match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="274"/>
        <source>Vision cosine</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ComparisonView</name>
    <message>
        <location filename="../views/ComparisonView.cpp" line="112"/>
        <source>A:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="114"/>
        <source>B:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="118"/>
        <source>Run a what-if (What-if menu) or choose two runs to compare.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="134"/>
        <source>What B&apos;s transforms did:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="137"/>
        <source>Show the profiler&apos;s own figures (capture.*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="151"/>
        <source>Comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="156"/>
        <source>Filter modules…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="166"/>
        <source>Module diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="176"/>
        <source>Heatmaps A | B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="177"/>
        <source>A/B repetitions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="204"/>
        <source>Changed answers only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="230"/>
        <source>One colour scale for A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="232"/>
        <source>Colour both sides over the values of both, so that a colour means the same value on each (while they show the same metric)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="262"/>
        <source>Could not compare: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="310"/>
        <source>Comparing run %1 with run %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="331"/>
        <source>Comparing runs %1 and %2 failed unexpectedly (%3). The session may be damaged; please report this with the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="345"/>
        <source>%1 [%2, %3]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="351"/>
        <source>A = %1, B = %2: eval runs over %3 items. Accuracy (measured, Wilson 95 %) %4 → %5; paired change %6 [%7, %8]%9. Per item %10 ms → %11 ms (medians, measured), speed-up %12× [%13, %14]. %15 answers changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="369"/>
        <source>Eval items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="399"/>
        <source>A = %1, B = %2%3. A/B over %4 repetitions: %5 ms → %6 ms (medians, measured), speed-up %7× [%8, %9]%10.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="414"/>
        <source>A = %1, B = %2%3. Latency %4 ms → %5 ms (measured, one probed run each, no interval: %6×).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="360"/>
        <location filename="../views/ComparisonView.cpp" line="407"/>
        <source>, within noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="410"/>
        <source>. Warning: a phase the transforms cannot change moved too, so the machine was unsteady</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonView.cpp" line="393"/>
        <source> (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::EvalItemHeatmaps</name>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="24"/>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="25"/>
        <source>right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="25"/>
        <source>wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="105"/>
        <source>Choose an item to see where each run&apos;s model looked while it answered (answer_attention).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="108"/>
        <source>No heatmaps stored for item %1: they need the model&apos;s attention to be observable (the built-in model, a TorchScript model&apos;s attention roles, an eager model&apos;s softmax in its attention modules), observed unless the eval ran with --no-item-heatmaps (heatmaps=False in Python).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="123"/>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="124"/>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="127"/>
        <source>(%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="128"/>
        <source>one scale for A and B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="128"/>
        <source>unit: attention weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="130"/>
        <source>Item %1, &quot;%2&quot;: attention the answer&apos;s queries gave each patch, summed over the decoder&apos;s layers, from an untimed pass of each run. Colours run from 0 to the larger maximum of the two.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="136"/>
        <source> Greyed on B: the patches whose tokens B&apos;s decoder never saw.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemHeatmaps.cpp" line="146"/>
        <source> The image %1 could not be read: the grids are drawn over grey.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::EvalItemsModel</name>
    <message>
        <location filename="../views/ComparisonView.cpp" line="207"/>
        <location filename="../views/EvalItemsModel.cpp" line="73"/>
        <source>changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27"/>
        <location filename="../views/EvalItemsModel.cpp" line="71"/>
        <source>–</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27"/>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="27"/>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="73"/>
        <source>same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="77"/>
        <source>KL(A ‖ B) of the next-token distributions on this item, mean over the decode steps both produced (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="86"/>
        <source>Item</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="88"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="90"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="92"/>
        <source>Expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="94"/>
        <source>A&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="96"/>
        <source>B&apos;s answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="98"/>
        <source>A right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="100"/>
        <source>B right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="102"/>
        <source>KL (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/EvalItemsModel.cpp" line="104"/>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ExpertLoadView</name>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="43"/>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="53"/>
        <location filename="../views/ExpertLoadView.cpp" line="56"/>
        <source>expert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="54"/>
        <source>routing slots (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="57"/>
        <source>layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="63"/>
        <source>load Z-score (derived)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="92"/>
        <source>e%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="93"/>
        <source>Token %1 was not routed (no MoE rows for it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="96"/>
        <source>L%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="101"/>
        <source>Selected token %1%2: %3 (measured gate weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="103"/>
        <source> (patch %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="129"/>
        <source>This run has no MoE routing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="130"/>
        <source>This run was imported from a trace, which has no routing: the MoE views need an mvprof capture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="162"/>
        <source>%1, visual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="163"/>
        <source>%1, text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="205"/>
        <source>Layer %1, %2: %3 slots over %4 tokens (measured). CV %5 · balancedness %6 · Jain %7 · MaxVio %8 · dead %9 · normalised entropy %10 · dashed: overload threshold (Δ = 1.8)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::FindingsModel</name>
    <message>
        <location filename="../views/FindingsModel.cpp" line="16"/>
        <source>Critical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="18"/>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="22"/>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="74"/>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="76"/>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="78"/>
        <source>Suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="80"/>
        <source>View</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::FlameChartView</name>
    <message>
        <location filename="../views/FlameChartView.cpp" line="34"/>
        <source>phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="36"/>
        <source>module span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="38"/>
        <source>op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="40"/>
        <source>GPU work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="42"/>
        <source>CUDA API call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="116"/>
        <source>No slices in this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="170"/>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="173"/>
        <source>time (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="237"/>
        <source>%1 (%2)
%3 ms (measured), from %4 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="255"/>
        <source>The flame chart could not be built: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="260"/>
        <source>Find slices by name (Enter: next)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="362"/>
        <source>%1 slices match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="298"/>
        <source>%1 slices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="319"/>
        <source>Building the flame chart…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FlameChartView.cpp" line="371"/>
        <source>match %1 of %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapCanvas</name>
    <message>
        <location filename="../views/HeatmapCanvas.cpp" line="68"/>
        <source>No image in this run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapView</name>
    <message>
        <location filename="../views/HeatmapView.cpp" line="25"/>
        <source>Attention received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="26"/>
        <source>Attention while answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="27"/>
        <source>Expert FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="28"/>
        <source>Expert latency share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="29"/>
        <source>Saliency (blend)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="30"/>
        <source>Waste: cost without attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="38"/>
        <source>Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="54"/>
        <source>What colours each patch; the status bar says whether a value is measured or estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="59"/>
        <source>Count only the prompt&apos;s tokens (prefill) or the generated ones (decode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="62"/>
        <source>Absolute (0 to max)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="63"/>
        <source>Range (min to max)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="74"/>
        <source>from layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="75"/>
        <source>to layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="88"/>
        <source>Opacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="138"/>
        <source>Patch %1 (row %2, column %3) · token %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="154"/>
        <source>%1: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="159"/>
        <source>layers %1–%2 (decoder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="269"/>
        <source>uniform within %1 % of the mean, so not painted (the differences are below %2 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="282"/>
        <source>colours from 0 to the maximum (absolute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="283"/>
        <source>colours from the minimum to the maximum (range)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="381"/>
        <source>s, with SI prefixes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="382"/>
        <source>%1, with SI prefixes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="309"/>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="379"/>
        <source>none (score)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="370"/>
        <location filename="../views/HeatmapView.cpp" line="385"/>
        <source>(%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="64"/>
        <source>Per layer (each to its maximum)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="65"/>
        <source>Absolute: colours from 0, so a small spread looks flat. Range: the smallest to the largest value, so any spread fills the colours. Per layer: each layer&apos;s values divided by that layer&apos;s maximum, then averaged over the layers shown, so a layer with larger values does not drown the others (unitless, derived). Values within %1 % of each other are shown as uniform.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="92"/>
        <source>Draw the patch boundaries (the model&apos;s patches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="97"/>
        <source>Opacity of the patch boundaries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="149"/>
        <source>%1: %2 of each layer&apos;s maximum, averaged (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="274"/>
        <source>each layer divided by its own maximum, then averaged over the layers shown (per layer, derived); colours from 0 to the largest average%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="276"/>
        <source> of both sides (one scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="279"/>
        <source>colours from 0 to the maximum of both sides (absolute, one scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="280"/>
        <source>colours from the minimum to the maximum of both sides (range, one scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="371"/>
        <source>layers %1–%2, each to its maximum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="372"/>
        <source>unit: none (share of each layer&apos;s maximum)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="386"/>
        <source>layers %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="387"/>
        <source>unit: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="400"/>
        <source>Computing the heatmap for layers %1–%2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="417"/>
        <source>The heatmap could not be computed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="449"/>
        <source>This run has no stored image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="450"/>
        <source>This run was imported from a trace, which has no image: heatmaps need an mvprof capture.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="461"/>
        <source>No patch values in this run (captured with --no-probes?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="491"/>
        <source>No %1 values for layers %2–%3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="507"/>
        <source>image %1 × %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="508"/>
        <source>image %1 × %2 px shown resized to the model&apos;s input shape, as its preprocessing resized it (square patches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="512"/>
        <source>%1: %2 × %3 patches, layers %4–%5; %6; %7</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::Labels</name>
    <message>
        <location filename="../views/Labels.cpp" line="11"/>
        <source>baseline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="13"/>
        <source>run %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="19"/>
        <source>measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="21"/>
        <source>estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="23"/>
        <source>predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="25"/>
        <source>derived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="27"/>
        <source>apportioned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="33"/>
        <source>All phases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="34"/>
        <source>Prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Labels.cpp" line="35"/>
        <source>Decode</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::LiveRunsModel</name>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="35"/>
        <source>stale (process gone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="35"/>
        <source>live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="47"/>
        <source>Process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="49"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="51"/>
        <source>Session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="53"/>
        <source>Started (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="55"/>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleDiffModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="367"/>
        <location filename="../views/ComparisonModels.cpp" line="370"/>
        <source>not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="398"/>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="400"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="402"/>
        <source>A ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="404"/>
        <source>B ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="406"/>
        <source>Δ ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="408"/>
        <source>Δ self ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="410"/>
        <source>B ÷ A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="412"/>
        <source>Δ FLOPs (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="414"/>
        <source>Δ bytes (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeModel</name>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="68"/>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="69"/>
        <source>compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="130"/>
        <source>%1 (%2 parameters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="143"/>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="145"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="147"/>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="149"/>
        <source>Total ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="151"/>
        <source>Self ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="153"/>
        <source>% of run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="155"/>
        <source>GFLOP (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="157"/>
        <source>MB (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="159"/>
        <source>FLOP/B (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="161"/>
        <source>Bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="163"/>
        <source>GPU ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="167"/>
        <source>Measured wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="169"/>
        <source>Memory- or compute-bound against the device&apos;s measured ridge point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="171"/>
        <source>Measured GPU time of the module, children included: the kernels, copies and fills launched inside it (CUPTI or the trace&apos;s profiler), or without them the time between CUDA events at each call&apos;s start and end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="174"/>
        <source>Estimated from the recorded op shapes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeView</name>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="46"/>
        <source>Filter modules (e.g. expert, layer.1, attn)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="56"/>
        <source>Show only modules of one kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="100"/>
        <source>All kinds</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::OpTableModel</name>
    <message>
        <location filename="../views/OpTableView.cpp" line="74"/>
        <source>Estimated from the op shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="75"/>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="77"/>
        <source>Share of the op&apos;s time whose FLOPs are known (derived)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="83"/>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="85"/>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="87"/>
        <source>Total ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="89"/>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="91"/>
        <source>GFLOP*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="93"/>
        <source>MB*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/OpTableView.cpp" line="95"/>
        <source>FLOPs known</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::OpTableView</name>
    <message>
        <location filename="../views/OpTableView.cpp" line="103"/>
        <source>Filter ops by name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ParetoView</name>
    <message>
        <location filename="../views/ParetoView.cpp" line="30"/>
        <source>Latency ratio, 1 / speed-up (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="31"/>
        <source>Prefill FLOPs or KV bytes ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="32"/>
        <source>KL mean to the baseline (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="33"/>
        <location filename="../views/ParetoView.cpp" line="173"/>
        <source>Top-1 agreement (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="34"/>
        <location filename="../views/ParetoView.cpp" line="174"/>
        <source>Token match (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="36"/>
        <source>Cost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="38"/>
        <source>Fidelity:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="63"/>
        <location filename="../views/ParetoView.cpp" line="170"/>
        <source>KV bytes ratio (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="64"/>
        <location filename="../views/ParetoView.cpp" line="171"/>
        <source>Prefill FLOPs ratio (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="148"/>
        <source>Pareto front</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="156"/>
        <source>%1 runs against baseline run %2; %3 on the front (none cheaper loses less), by medians; bars: the latency ratio&apos;s interval (A/B, measured; ≈ 95 % from 6 repetitions on, less with fewer). Click a point to open its comparison.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="169"/>
        <source>1 / speed-up (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="172"/>
        <source>KL mean (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ParetoView.cpp" line="207"/>
        <source>%1 at %2 (%3): run %4
cost %5 · fidelity %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::PlacementDialog</name>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="66"/>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="68"/>
        <source>Balancedness before (derived)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="70"/>
        <source>After (derived)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="72"/>
        <source>Replicated experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="89"/>
        <source>Expert Placement (EPLB) — run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="93"/>
        <source>Physical expert slots in all: the experts plus the redundant ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="94"/>
        <source>GPUs the slots are spread over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="95"/>
        <source>Expert groups (DeepSeek-V3: 8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="96"/>
        <source>Servers; the hierarchical policy keeps replicas within one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="102"/>
        <source>All tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="103"/>
        <source>Visual tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="104"/>
        <source>Text tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="106"/>
        <source>Replicas:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="107"/>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="108"/>
        <source>Groups:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="109"/>
        <source>Nodes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="110"/>
        <source>Load from:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="130"/>
        <source>&amp;Save SGLang Placement…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="169"/>
        <source>EPLB cannot place this: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="178"/>
        <source>%1 (×%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="185"/>
        <source>%1 policy, %2 routed token slots (measured). Balancedness = mean ÷ max of the GPUs&apos; loads in a layer (1 = even), each expert&apos;s load split evenly over its replicas (derived); before = SGLang&apos;s trivial placement. Over %3 layers: worst %4 → %5, median %6 → %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="198"/>
        <source>EPLB&apos;s placement is predicted to balance %1 layer(s) worse than the trivial one: keep the trivial placement there, or try another number of replicas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="214"/>
        <location filename="../views/PlacementDialog.cpp" line="221"/>
        <source>Save SGLang Placement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="215"/>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/PlacementDialog.cpp" line="222"/>
        <source>SGLang --init-expert-location (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::PlotLegend</name>
    <message>
        <location filename="../views/PlotLegend.cpp" line="53"/>
        <source>Show Legend</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::RooflineView</name>
    <message>
        <location filename="../views/RooflineView.cpp" line="24"/>
        <location filename="../views/RooflineView.cpp" line="63"/>
        <source>arithmetic intensity (FLOP/byte, estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="25"/>
        <source>performance (FLOP/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="50"/>
        <source>No device ceilings were recorded for this run: no roofline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="51"/>
        <source>This run was imported from a trace, which does not measure its machine&apos;s ceilings: no roofline (the op table and flame chart show its ops).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="62"/>
        <source>arithmetic intensity (FLOP/byte, GPU counters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="74"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="86"/>
        <source>this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="114"/>
        <source>%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ kernel time; FLOPs, DRAM bytes and kernel time are measured by the GPU&apos;s counters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="117"/>
        <source>%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ time (measured); FLOPs and bytes are estimated from op shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="123"/>
        <source>Roofs: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="151"/>
        <source>%1
AI %2 FLOP/B (%7) · %3 GFLOP/s achieved (measured time)
%4 ms · %5-bound · attainable %6 GFLOP/s (predicted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="159"/>
        <source>GPU counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="159"/>
        <source>estimated</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::RunMetricsModel</name>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="313"/>
        <source>Figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="315"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="317"/>
        <source>Unit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="319"/>
        <source>Measured or predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ComparisonModels.cpp" line="321"/>
        <source>How it was obtained</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::RunsModel</name>
    <message>
        <location filename="../views/RunsView.cpp" line="17"/>
        <source>live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="19"/>
        <source>complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="21"/>
        <source>incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="23"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="69"/>
        <source>(baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="84"/>
        <source>%1
image %2
prompt &quot;%3&quot;
%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="94"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="96"/>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="98"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="100"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="102"/>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="104"/>
        <source>Transform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="106"/>
        <source>Wall ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="108"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="110"/>
        <source>Generated text</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::SweepTableModel</name>
    <message>
        <location filename="../views/SweepModels.cpp" line="64"/>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="74"/>
        <source>not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="81"/>
        <source>%1× [%2, %3]%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="85"/>
        <source> within noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="105"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="107"/>
        <source>Budget (KV fraction)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="107"/>
        <source>Budget (tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="109"/>
        <source>Parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="111"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="113"/>
        <source>Positions/head (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="113"/>
        <source>Tokens held (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="115"/>
        <source>Speed-up (A/B, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="117"/>
        <source>KV bytes ratio (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="117"/>
        <source>Prefill FLOPs ratio (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="119"/>
        <source>KL mean (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="121"/>
        <source>Top-1 agreement (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="123"/>
        <source>Token match (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/SweepModels.cpp" line="125"/>
        <source>Why not run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::TimelineView</name>
    <message>
        <location filename="../views/TimelineView.cpp" line="63"/>
        <source>time since the run began (ms, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="138"/>
        <source>No MoE layers were probed in this run: nothing to show on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="161"/>
        <source>phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="174"/>
        <source>%1 gate and expert spans in %2 lanes; red: router, blue: experts, darker: several spans folded into one pixel; the top strip: yellow prefill, green decode steps; shaded lanes: the experts the selected token went to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="222"/>
        <source>%1: %2 span(s), %3–%4 ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
