#!/usr/bin/env python3
"""Fills translations/mvprof_zh_CN.ts from the table below after lupdate.

Run `cmake --build build --target update_translations` first, then this
script; strings it does not know stay unfinished, and test_translations fails
until they are added here.
"""
import sys
import xml.etree.ElementTree as ET

ZH = {
    "New Capture": "新建采集",
    "Reference, tiny (seconds)": "参考模型，tiny（数秒）",
    "Reference, small (up to a minute on CPU)": "参考模型，small（CPU 上最多约一分钟）",
    "Reference, LLaVA-MoE 7B class (large GPU, or truncate depth)": "参考模型，LLaVA-MoE 7B 级（需大显存 GPU，或截断层数）",
    "all layers": "全部层",
    "Truncate the model to this many vision and decoder layers": "将模型截断为此数量的视觉层与解码层",
    "CPU": "CPU",
    "e.g. all, 0-1 or 0,3 (empty: none)": "例如 all、0-1 或 0,3（留空：不保存）",
    "Decoder layers whose per-head attention maps are stored (for head redundancy and saliency)":
        "保存逐头注意力图的解码层（用于注意力头冗余度与显著性）",
    "Expert popularity ∝ (rank + 1)^−skew; 0 leaves routing to the router alone":
        "专家热度 ∝ (排名 + 1)^−偏斜；0 表示完全由路由器决定",
    "Describe the image.": "描述这张图片。",
    "Model": "模型",
    "Depth": "深度",
    "Image": "图像",
    "Browse…": "浏览…",
    "Choose an Image": "选择图像",
    "Images (*.png *.jpg *.jpeg *.bmp)": "图像 (*.png *.jpg *.jpeg *.bmp)",
    "Prompt": "提示词",
    "Decode steps": "解码步数",
    "Device": "设备",
    "Attention maps": "注意力图",
    "Routing skew": "路由偏斜",
    "Session file": "会话文件",
    "Choose…": "选择…",
    "Session File": "会话文件",
    "mvprof sessions (*.mvprof)": "mvprof 会话 (*.mvprof)",
    "Capture": "采集",
    "No image": "无图像",
    "Cannot read this image": "无法读取此图像",
    "%1 × %2 px": "%1 × %2 像素",
    "Choose an image file that exists.": "请选择一个存在的图像文件。",
    "Choose where to write the session.": "请选择会话的保存位置。",
    "The session's folder is not writable.": "会话所在文件夹不可写。",
    "%1 exists. Replace it?": "%1 已存在。要替换它吗？",
    "Could not start %1: %2": "无法启动 %1：%2",
    "The capture process crashed; the session keeps what it wrote.": "采集进程崩溃；会话保留了已写入的内容。",
    "The capture process exited with status %1.": "采集进程以状态 %1 退出。",
    "All phases": "全部阶段",
    "Prefill": "预填充",
    "Decode": "解码",
    "Layer": "层",
    "expert": "专家",
    "routing slots (measured)": "路由槽位（实测）",
    "layer": "层",
    "e%1 (%2)": "e%1（%2）",
    "Token %1 was not routed (no MoE rows for it).": "词元 %1 未经过路由（没有对应的 MoE 记录）。",
    "L%1 → %2": "L%1 → %2",
    "Selected token %1: %2 (measured gate weights)": "选中词元 %1：%2（实测门控权重）",
    "This run has no MoE routing.": "此运行没有 MoE 路由记录。",
    "%1, visual": "%1，视觉",
    "%1, text": "%1，文本",
    "Layer %1, %2: %3 slots over %4 tokens (measured). CV %5 · balancedness %6 · Jain %7 · MaxVio %8 · dead %9 · normalised entropy %10 · dashed: overload threshold (Δ = 1.8)":
        "第 %1 层，%2：%4 个词元共 %3 个槽位（实测）。CV %5 · 均衡度 %6 · Jain %7 · MaxVio %8 · 空闲 %9 · 归一化熵 %10 · 虚线：过载阈值（Δ = 1.8）",
    "Critical": "严重",
    "Warning": "警告",
    "Info": "提示",
    "Severity": "严重程度",
    "Finding": "诊断",
    "Suggestion": "建议",
    "View": "视图",
    "No image in this run": "此运行没有图像",
    "Attention received": "接收的注意力",
    "Expert FLOPs": "专家 FLOPs",
    "Expert latency share": "专家延迟占比",
    "Saliency (blend)": "显著性（融合）",
    "Waste: cost without attention": "浪费：有开销而少注意力",
    "What colours each patch; the status bar says whether a value is measured or estimated":
        "决定每个图块颜色的指标；状态栏会说明数值是实测还是估算",
    "from layer ": "起始层 ",
    "to layer ": "结束层 ",
    "Opacity": "不透明度",
    "Patch row %1, column %2: %3 = %4 (%5)": "图块 第 %1 行 第 %2 列：%3 = %4（%5）",
    "estimated": "估算",
    "measured": "实测",
    "This run has no stored image.": "此运行没有保存图像。",
    "No patch values in this run (captured with --no-probes?).": "此运行没有图块数值（是否使用了 --no-probes 采集？）。",
    "No %1 values for layers %2–%3.": "第 %2–%3 层没有 %1 数值。",
    "%1: %2 × %3 patches, layers %4–%5, min-max normalised; image %6 × %7 px":
        "%1：%2 × %3 个图块，第 %4–%5 层，最小-最大归一化；图像 %6 × %7 像素",
    "mvprof — MoE-Visual Profiler": "mvprof — MoE 视觉性能剖析器",
    "&File": "文件(&F)",
    "&New Capture…": "新建采集(&N)…",
    "&Open Session…": "打开会话(&O)…",
    "Open &Recent": "最近打开(&R)",
    "&Export": "导出(&E)",
    "Heatmap Overlay as PNG…": "热力图叠加导出为 PNG…",
    "Heatmap Grid as CSV…": "热力图网格导出为 CSV…",
    "Module Table as CSV…": "模块表导出为 CSV…",
    "Findings as CSV…": "诊断导出为 CSV…",
    "Report as Markdown…": "报告导出为 Markdown…",
    "Expert Load Plot as PNG…": "专家负载图导出为 PNG…",
    "Expert Load Plot as PDF…": "专家负载图导出为 PDF…",
    "Timeline as PNG…": "时间线导出为 PNG…",
    "Timeline as PDF…": "时间线导出为 PDF…",
    "&Quit": "退出(&Q)",
    "&View": "视图(&V)",
    "Module cost tree": "模块开销树",
    "Expert load": "专家负载",
    "Roofline": "屋顶线",
    "Findings": "诊断",
    "Session": "会话",
    "Gate vs expert timeline": "门控与专家时间线",
    "Cancel": "取消",
    "decode %1/%2 · %p%": "解码 %1/%2 · %p%",
    "%1 · %p%": "%1 · %p%",
    "The capture failed": "采集失败",
    "Capture complete": "采集完成",
    "Capture cancelled: the run is kept, marked incomplete": "采集已取消：运行已保留并标记为未完成",
    "Capture failed: %1": "采集失败：%1",
    "No session": "无会话",
    "Could not open the session": "无法打开会话",
    "Open Session": "打开会话",
    "mvprof sessions (*.mvprof);;All files (*)": "mvprof 会话 (*.mvprof);;所有文件 (*)",
    "A capture is already running": "已有采集正在运行",
    "Capturing %1 on %2…": "正在用 %2 采集 %1…",
    "Loading %1…": "正在加载 %1…",
    "%1 · %2 · run %3 (%4) · %5 ms wall (measured)": "%1 · %2 · 运行 %3（%4）· 墙钟 %5 毫秒（实测）",
    "%1 — mvprof": "%1 — mvprof",
    "Opened %1": "已打开 %1",
    "Open a session first.": "请先打开一个会话。",
    "This run has no heatmap values.": "此运行没有热力图数值。",
    "Writing %1 failed": "写入 %1 失败",
    "Unknown export": "未知的导出类型",
    "Open a session first": "请先打开一个会话",
    "PNG images (*.png)": "PNG 图像 (*.png)",
    "PDF documents (*.pdf)": "PDF 文档 (*.pdf)",
    "Markdown (*.md)": "Markdown (*.md)",
    "CSV tables (*.csv)": "CSV 表格 (*.csv)",
    "Export": "导出",
    "Export failed": "导出失败",
    "Wrote %1": "已写入 %1",
    "%1 (%2 parameters)": "%1（%2 个参数）",
    "Module": "模块",
    "Kind": "类型",
    "Calls": "调用次数",
    "Total ms": "总耗时 毫秒",
    "Self ms": "自身耗时 毫秒",
    "% of run": "占运行 %",
    "GFLOP (est.)": "GFLOP（估算）",
    "MB (est.)": "MB（估算）",
    "Measured wall time": "实测墙钟时间",
    "Estimated from the recorded op shapes": "由记录的算子形状估算",
    "Filter modules (e.g. expert, layer.1, attn)": "筛选模块（例如 expert、layer.1、attn）",
    "Cannot write %1: %2": "无法写入 %1：%2",
    "Writing %1 failed: %2": "写入 %1 失败：%2",
    "There is no image to export.": "没有可导出的图像。",
    "Encoding %1 failed": "编码 %1 失败",
    "arithmetic intensity (FLOP/byte, estimated)": "算术强度（FLOP/字节，估算）",
    "performance (FLOP/s)": "性能（FLOP/s）",
    "No device ceilings were recorded for this run: no roofline.": "此运行未记录设备性能上限：无法绘制屋顶线。",
    "%1 modules; blue: memory-bound, orange: compute-bound on %2 (ridge %3 FLOP/B, measured). Point area ∝ time (measured); FLOPs and bytes are estimated from op shapes.":
        "%1 个模块；蓝色：访存受限，橙色：计算受限，设备 %2（拐点 %3 FLOP/B，实测）。点面积 ∝ 耗时（实测）；FLOPs 与字节数由算子形状估算。",
    "live": "进行中",
    "complete": "完成",
    "incomplete": "未完成",
    "failed": "失败",
    "(baseline)": "（基线）",
    "Run": "运行",
    "Label": "标签",
    "Status": "状态",
    "Transform": "变换",
    "Wall ms (measured)": "墙钟 毫秒（实测）",
    "time since the run began (ms, measured)": "自运行开始的时间（毫秒，实测）",
    "No MoE layers were probed in this run: nothing to show on the timeline.": "此运行没有探测到 MoE 层：时间线无内容可显示。",
    "%1 gate and expert spans in %2 lanes; red: router, blue: experts, darker: several spans folded into one pixel; yellow: prefill, green: decode steps.":
        "%2 条泳道中共 %1 个门控与专家区间；红色：路由器，蓝色：专家，深色：多个区间折叠进同一像素；黄色：预填充，绿色：解码步。",
    "%1: %2 span(s), %3–%4 ms (measured)": "%1：%2 个区间，%3–%4 毫秒（实测）",
    "MoE-Visual Profiler": "MoE 视觉性能剖析器",
    "&Language": "语言(&L)",
    "Grid": "网格",
    "Draw the patch grid": "绘制图块网格",
    "%1 %2 (%3)": "%1 %2（%3）",
    "derived": "推导",
    "Patch %1 (row %2, column %3): %4": "图块 %1（第 %2 行，第 %3 列）：%4",
    "memory": "访存",
    "compute": "计算",
    "FLOP/B (est.)": "FLOP/B（估算）",
    "Bound": "瓶颈",
    "Memory- or compute-bound against the device's measured ridge point": "相对设备实测拐点判定为访存受限或计算受限",
    "Show only modules of one kind": "只显示某一类型的模块",
    "All kinds": "全部类型",
    "System": "跟随系统",
    "The language changes when mvprof starts again": "语言将在 mvprof 重新启动后生效",
    "&Theme": "主题(&T)",
    "Light": "浅色",
    "Dark": "深色",
    "%1\nAI %2 FLOP/B (estimated) · %3 GFLOP/s achieved (measured time)\n%4 ms · %5-bound · attainable %6 GFLOP/s (predicted)":
        "%1\n算术强度 %2 FLOP/B（估算）· 达到 %3 GFLOP/s（实测时间）\n%4 毫秒 · %5 受限 · 可达 %6 GFLOP/s（预测）",
    "%1\nimage %2\nprompt \"%3\"\n%4": "%1\n图像 %2\n提示词“%3”\n%4",
    "A session file (.mvprof) to open": "要打开的会话文件（.mvprof）",
}


def main(path):
    tree = ET.parse(path)
    missing = []
    for message in tree.iter("message"):
        source = message.findtext("source")
        translation = message.find("translation")
        zh = ZH.get(source)
        # Strings that are only placeholders or line breaks need no words.
        if zh is None and source.strip().replace("%1", "").replace("\n", "").strip() == "":
            zh = source
        if zh is None:
            missing.append(source)
            continue
        translation.text = zh
        translation.attrib.pop("type", None)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    for m in missing:
        print("untranslated:", repr(m), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "translations/mvprof_zh_CN.ts"))
