<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <location filename="../views/Export.cpp" line="45"/>
        <location filename="../views/Export.cpp" line="54"/>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="47"/>
        <location filename="../views/Export.cpp" line="57"/>
        <source>Writing %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="52"/>
        <source>There is no image to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/Export.cpp" line="56"/>
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
        <location filename="../app/gui/main.cpp" line="22"/>
        <source>A session file (.mvprof) to open</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::AttachDialog</name>
    <message>
        <location filename="../app/gui/AttachDialog.cpp" line="18"/>
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
        <location filename="../app/gui/CaptureDialog.cpp" line="36"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="131"/>
        <location filename="../app/gui/CaptureDialog.cpp" line="135"/>
        <source>New Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="37"/>
        <source>Reference, tiny (seconds)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="38"/>
        <source>Reference, small (up to a minute on CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="39"/>
        <source>Reference, LLaVA-MoE 7B class (large GPU, or truncate depth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="41"/>
        <source>all layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="42"/>
        <source>Truncate the model to this many vision and decoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="45"/>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="46"/>
        <source>e.g. all, 0-1 or 0,3 (empty: none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="47"/>
        <source>Decoder layers whose per-head attention maps are stored (for head redundancy and saliency)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="51"/>
        <source>Expert popularity ∝ (rank + 1)^−skew; 0 leaves routing to the router alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="52"/>
        <source>Describe the image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="58"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="59"/>
        <source>Depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="60"/>
        <source>Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="60"/>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="61"/>
        <source>Choose an Image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="62"/>
        <source>Images (*.png *.jpg *.jpeg *.bmp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="66"/>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="67"/>
        <source>Decode steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="68"/>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="69"/>
        <source>Attention maps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="70"/>
        <source>Routing skew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="71"/>
        <source>Session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="71"/>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="72"/>
        <source>Session File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="73"/>
        <source>mvprof sessions (*.mvprof)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="77"/>
        <source>Capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="117"/>
        <source>No image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="117"/>
        <source>Cannot read this image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="121"/>
        <source>%1 × %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="127"/>
        <source>Choose an image file that exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="128"/>
        <source>Choose where to write the session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="129"/>
        <source>The session&apos;s folder is not writable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureDialog.cpp" line="135"/>
        <source>%1 exists. Replace it?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::CaptureRunner</name>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="26"/>
        <source>Could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="34"/>
        <source>The capture process crashed; the session keeps what it wrote.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/CaptureRunner.cpp" line="35"/>
        <source>The capture process exited with status %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::MainWindow</name>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="64"/>
        <source>mvprof — MoE-Visual Profiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="68"/>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="69"/>
        <source>&amp;New Capture…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="71"/>
        <source>&amp;Attach…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="72"/>
        <source>&amp;Open Session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="74"/>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="75"/>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="77"/>
        <source>Heatmap Overlay as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="77"/>
        <source>Heatmap Grid as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="78"/>
        <source>Module Table as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="78"/>
        <source>Findings as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="79"/>
        <source>Report as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="79"/>
        <source>Expert Load Plot as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="80"/>
        <source>Expert Load Plot as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="80"/>
        <source>Timeline as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="81"/>
        <source>Timeline as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="84"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="86"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="87"/>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="88"/>
        <location filename="../app/gui/MainWindow.cpp" line="99"/>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="93"/>
        <source>The language changes when mvprof starts again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="98"/>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="99"/>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="99"/>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="106"/>
        <source>Module cost tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="107"/>
        <source>Expert load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="109"/>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="112"/>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="113"/>
        <source>Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="114"/>
        <source>Gate vs expert timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="148"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="160"/>
        <source> · ~%1 s left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="162"/>
        <source>decode %1/%2 · %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="163"/>
        <source>%1 · %p%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="179"/>
        <source>The capture failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="180"/>
        <source>Capture complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="180"/>
        <source>Capture cancelled: the run is kept, marked incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="181"/>
        <source>Capture failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="185"/>
        <source>No session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="192"/>
        <location filename="../app/gui/MainWindow.cpp" line="196"/>
        <source>Could not open the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="229"/>
        <source>Open Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="230"/>
        <source>mvprof sessions (*.mvprof);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="253"/>
        <source>A capture is already running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="260"/>
        <source>Describe the image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="278"/>
        <source>Capturing %1 on %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="284"/>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="304"/>
        <source>%1 · %2 · run %3 (%4) · %5 ms wall (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="309"/>
        <source>%1 — mvprof</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="310"/>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="318"/>
        <source>Open a session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="323"/>
        <source>This run has no heatmap values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="336"/>
        <location filename="../app/gui/MainWindow.cpp" line="341"/>
        <source>Writing %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="344"/>
        <source>Unknown export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="349"/>
        <source>Open a session first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="355"/>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="355"/>
        <source>PDF documents (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="355"/>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="355"/>
        <source>CSV tables (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="359"/>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="364"/>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="365"/>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ExpertLoadView</name>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="30"/>
        <source>All phases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="31"/>
        <source>Prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="32"/>
        <source>Decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="36"/>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="46"/>
        <location filename="../views/ExpertLoadView.cpp" line="49"/>
        <source>expert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="47"/>
        <source>routing slots (measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="50"/>
        <source>layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="77"/>
        <source>e%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="78"/>
        <source>Token %1 was not routed (no MoE rows for it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="80"/>
        <source>L%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="81"/>
        <source>Selected token %1: %2 (measured gate weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="97"/>
        <source>This run has no MoE routing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="122"/>
        <source>%1, visual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="123"/>
        <source>%1, text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ExpertLoadView.cpp" line="152"/>
        <source>Layer %1, %2: %3 slots over %4 tokens (measured). CV %5 · balancedness %6 · Jain %7 · MaxVio %8 · dead %9 · normalised entropy %10 · dashed: overload threshold (Δ = 1.8)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::FindingsModel</name>
    <message>
        <location filename="../views/FindingsModel.cpp" line="11"/>
        <source>Critical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="12"/>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="15"/>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="66"/>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="67"/>
        <source>Finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="68"/>
        <source>Suggestion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/FindingsModel.cpp" line="69"/>
        <source>View</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapCanvas</name>
    <message>
        <location filename="../views/HeatmapView.cpp" line="83"/>
        <source>No image in this run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::HeatmapView</name>
    <message>
        <location filename="../views/HeatmapView.cpp" line="24"/>
        <source>Attention received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="25"/>
        <source>Expert FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="26"/>
        <source>Expert latency share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="27"/>
        <source>Saliency (blend)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="28"/>
        <source>Waste: cost without attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="141"/>
        <source>Grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="144"/>
        <source>What colours each patch; the status bar says whether a value is measured or estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="146"/>
        <source>All phases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="147"/>
        <source>Prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="148"/>
        <source>Decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="149"/>
        <source>Count only the prompt&apos;s tokens (prefill) or the generated ones (decode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="153"/>
        <source>from layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="154"/>
        <source>to layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="162"/>
        <source>Opacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="165"/>
        <source>Draw the patch grid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="190"/>
        <source>%1 %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="193"/>
        <source>estimated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="193"/>
        <source>measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="193"/>
        <source>derived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="195"/>
        <source>Patch %1 (row %2, column %3): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="245"/>
        <source>This run has no stored image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="254"/>
        <source>No patch values in this run (captured with --no-probes?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="269"/>
        <source>No %1 values for layers %2–%3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/HeatmapView.cpp" line="279"/>
        <source>%1: %2 × %3 patches, layers %4–%5, min-max normalised; image %6 × %7 px</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::LiveRunsModel</name>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="34"/>
        <source>stale (process gone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="34"/>
        <source>live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="44"/>
        <source>Process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="45"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="46"/>
        <source>Session file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="47"/>
        <source>Started (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/LiveRunsModel.cpp" line="48"/>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeModel</name>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="62"/>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="62"/>
        <source>compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="99"/>
        <source>%1 (%2 parameters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="109"/>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="110"/>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="111"/>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="112"/>
        <source>Total ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="113"/>
        <source>Self ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="114"/>
        <source>% of run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="115"/>
        <source>GFLOP (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="116"/>
        <source>MB (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="117"/>
        <source>FLOP/B (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="118"/>
        <source>Bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="122"/>
        <source>Measured wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="123"/>
        <source>Memory- or compute-bound against the device&apos;s measured ridge point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeModel.cpp" line="124"/>
        <source>Estimated from the recorded op shapes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::ModuleTreeView</name>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="47"/>
        <source>Filter modules (e.g. expert, layer.1, attn)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="59"/>
        <source>Show only modules of one kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/ModuleTreeView.cpp" line="78"/>
        <source>All kinds</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::RooflineView</name>
    <message>
        <location filename="../views/RooflineView.cpp" line="20"/>
        <source>arithmetic intensity (FLOP/byte, estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="21"/>
        <source>performance (FLOP/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="37"/>
        <source>No device ceilings were recorded for this run: no roofline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="79"/>
        <source>%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ time (measured); FLOPs and bytes are estimated from op shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RooflineView.cpp" line="109"/>
        <source>%1
AI %2 FLOP/B (estimated) · %3 GFLOP/s achieved (measured time)
%4 ms · %5-bound · attainable %6 GFLOP/s (predicted)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::RunsModel</name>
    <message>
        <location filename="../views/RunsView.cpp" line="14"/>
        <source>live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="15"/>
        <source>complete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="16"/>
        <source>incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="17"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="53"/>
        <source>(baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="63"/>
        <source>%1
image %2
prompt &quot;%3&quot;
%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="72"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="73"/>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="74"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="75"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="76"/>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="77"/>
        <source>Transform</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/RunsView.cpp" line="78"/>
        <source>Wall ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>mvp::views::TimelineView</name>
    <message>
        <location filename="../views/TimelineView.cpp" line="58"/>
        <source>time since the run began (ms, measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="109"/>
        <source>No MoE layers were probed in this run: nothing to show on the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="137"/>
        <source>%1 gate and expert spans in %2 lanes; red: router, blue: experts, darker: several spans folded into one pixel; yellow: prefill, green: decode steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../views/TimelineView.cpp" line="171"/>
        <source>%1: %2 span(s), %3–%4 ms (measured)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
